"use client";

import { GitBranch, HelpCircle } from "lucide-react";
import { useWatch } from "react-hook-form";
import { previewValues, usableTrigger, type EditorFormValues } from "@/lib/campaigns/editor";
import type { Journey } from "@/lib/campaigns/journey";
import { previewJourneyPath } from "@/lib/campaigns/journey-path";
import { payloadAttributes, samplePayload } from "@/lib/campaigns/sample";
import { PHONE_ATTRIBUTE } from "@/lib/campaigns/schemas";
import { previewTemplate } from "@/lib/templates/render";
import type { TemplateView } from "@/lib/templates/service";
import type { BuilderForm } from "../builder-parts";
import { WhatsAppPreview } from "../whatsapp-preview";
import { describeStep, stepTitle } from "./describe";

/** "Preview a path": the way the example request's contact takes, each branch decided where the example can, and the messages sent on it. */
export function JourneyPreview({ form, journey, templates, businessName }: { form: BuilderForm; journey: Journey; templates: TemplateView[]; businessName: string }) {
  const values = useWatch({ control: form.control }) as EditorFormValues;
  const trigger = usableTrigger(values.triggerConfig);
  const body = samplePayload(trigger);
  const attributes = payloadAttributes(trigger, body);
  const stops = previewJourneyPath(journey, { body, attributes });
  const templateName = (id: string) => templates.find((t) => t.id === id)?.name;
  return (
    <section aria-labelledby="path-preview-title" className="grid gap-3">
      <div className="flex items-baseline justify-between">
        <h2 id="path-preview-title" className="text-sm font-semibold">
          Preview a path
        </h2>
        <span className="text-xs text-muted-foreground">for {String(attributes[PHONE_ATTRIBUTE] ?? "")}</span>
      </div>
      <p className="text-xs text-muted-foreground">The way the contact of the trigger&apos;s example request goes, with the messages it gets.</p>
      <ol className="grid gap-3">
        {stops.map(({ step, way }, index) => {
          const template = step.type === "send" ? templates.find((t) => t.id === step.templateId) : undefined;
          const preview = step.type === "send" && template ? previewTemplate(template, previewValues(step.messageConfig.variables, attributes)) : null;
          return (
            <li key={step.id} className="grid gap-1.5">
              <p className="text-sm">
                <span className="font-medium">
                  {index + 1}. {stepTitle(step)}
                </span>{" "}
                <span className="text-xs text-muted-foreground">· {describeStep(step, templateName)}</span>
              </p>
              {way && (
                <p className="flex items-start gap-1.5 text-xs">
                  {way.decided ? <GitBranch className="mt-0.5 size-3.5 shrink-0 text-primary" aria-hidden /> : <HelpCircle className="mt-0.5 size-3.5 shrink-0 text-amber-700" aria-hidden />}
                  <span>
                    Goes on “{way.label}”{way.decided ? "" : ` (${way.reason})`}
                  </span>
                </p>
              )}
              {step.type === "send" && <WhatsAppPreview preview={preview} businessName={businessName} className="[&>div:last-child]:min-h-0" />}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
