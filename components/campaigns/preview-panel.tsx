import { useWatch } from "react-hook-form";
import { previewValues, usableTrigger, type EditorFormValues } from "@/lib/campaigns/editor";
import { payloadAttributes, samplePayload } from "@/lib/campaigns/sample";
import { PHONE_ATTRIBUTE } from "@/lib/campaigns/schemas";
import { previewTemplate } from "@/lib/templates/render";
import type { TemplateView } from "@/lib/templates/service";
import type { BuilderForm } from "./builder-parts";
import { WhatsAppPreview } from "./whatsapp-preview";

/** The message as a recipient would see it, filled from the example request body. */
export function PreviewPanel({ form, templates, businessName }: { form: BuilderForm; templates: TemplateView[]; businessName: string }) {
  const values = useWatch({ control: form.control }) as EditorFormValues;
  const template = templates.find((t) => t.id === values.templateId);
  const trigger = usableTrigger(values.triggerConfig);
  const payload = samplePayload(trigger);
  const attributes = payloadAttributes(trigger, payload);
  const preview = template ? previewTemplate(template, previewValues(values.messageConfig?.variables, attributes)) : null;
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between">
        <h2 className="text-sm font-semibold">Live preview</h2>
        <span className="text-xs text-muted-foreground">to {String(attributes[PHONE_ATTRIBUTE] ?? "")}</span>
      </div>
      <WhatsAppPreview preview={preview} businessName={businessName} />
      <p className="text-xs text-muted-foreground">
        Filled from the example request body. <mark className="rounded bg-amber-100 px-0.5 text-amber-800">Highlighted</mark> parts have no value yet or come from
        a contact attribute.
      </p>
    </div>
  );
}
