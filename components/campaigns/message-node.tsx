import { AlertCircle, Info, MessageSquareText, RefreshCw } from "lucide-react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { PHONE_ATTRIBUTE } from "@/lib/campaigns/schemas";
import { alignVariables, alwaysSentAttributes, attributeOptions, mayBeEmpty, nullIfEmpty, splitMessageChecks } from "@/lib/campaigns/editor";
import type { FieldError } from "@/lib/http/errors";
import type { TemplateView } from "@/lib/templates/service";
import { describeVariable } from "@/lib/templates/variables";
import { cn } from "@/lib/utils";
import { CheckList, NodeBadge, type BuilderForm } from "./builder-parts";
import { NativeSelect } from "./native-select";
import { TemplateOptions } from "./template-options";

/** Step 2: the WhatsApp template to send and the contact attribute (or fallback) filling each blank. */
export function MessageNode({
  form,
  templates,
  knownAttributes,
  checks,
  onSync,
  syncing,
  editable,
  attributesFrom = "trigger",
  emptyCounts,
}: {
  form: BuilderForm;
  templates: TemplateView[];
  knownAttributes: string[];
  checks: FieldError[];
  onSync: () => void;
  syncing: boolean;
  editable: boolean;
  /** Bulk campaigns fill the blanks from the saved contact only: no request, one group of attributes. */
  attributesFrom?: "trigger" | "contact";
  /**
   * Bulk: per variable key, how many contacts of the audience have no value for it (the preview's
   * count, which also decides "every contact has a value"). Once known, it alone decides the warning.
   */
  emptyCounts?: Record<string, number>;
}) {
  const templateId = useWatch({ control: form.control, name: "templateId" });
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const mappings = useWatch({ control: form.control, name: "messageConfig.variables" });
  const template = templates.find((t) => t.id === templateId);
  const fromContact = attributesFrom === "contact";
  const options = fromContact ? { fromTrigger: [], stored: [...new Set([PHONE_ATTRIBUTE, ...knownAttributes])] } : attributeOptions(trigger, knownAttributes);
  const allAttributes = [...options.fromTrigger, ...options.stored];
  const alwaysSent = fromContact ? new Set([PHONE_ATTRIBUTE]) : alwaysSentAttributes(trigger);
  const { template: templateCheck, variables: variableChecks, others: otherChecks } = splitMessageChecks(checks);

  function chooseTemplate(id: string) {
    const next = templates.find((t) => t.id === id);
    form.setValue("templateId", id === "" ? null : id, { shouldDirty: true });
    form.setValue("messageConfig.variables", alignVariables(next, form.getValues("messageConfig.variables"), allAttributes), { shouldDirty: true });
  }

  return (
    <Card className="gap-4 border-l-4 border-l-[#25d366]" aria-labelledby="message-node-title" role="group">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={2} icon={<MessageSquareText />} />
          <div>
            <CardTitle id="message-node-title">Message: send a WhatsApp template</CardTitle>
            <CardDescription className="mt-1">
              WhatsApp only delivers business messages from templates it has approved. Pick one and fill each of its blanks from the contact.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <div className="flex items-end justify-between gap-2">
            <label htmlFor="template-picker" className="text-sm font-medium">
              Template
            </label>
            {editable && (
              <Button type="button" variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onSync} disabled={syncing}>
                <RefreshCw className={cn("size-3", syncing && "animate-spin")} aria-hidden /> {syncing ? "Syncing…" : "Sync templates"}
              </Button>
            )}
          </div>
          <NativeSelect
            id="template-picker"
            value={templateId ?? ""}
            onChange={(event) => chooseTemplate(event.target.value)}
            aria-invalid={templateCheck ? true : undefined}
            aria-describedby="template-hint"
          >
            <TemplateOptions templates={templates} chosenId={templateId ?? null} />
          </NativeSelect>
          <p id="template-hint" className="text-xs text-muted-foreground">
            {templates.length === 0
              ? "No templates yet. Create them in WhatsApp Manager, then press Sync templates."
              : "Templates waiting for review or rejected by WhatsApp are listed but cannot be chosen."}
          </p>
          {templateCheck && (
            <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-destructive">
              <AlertCircle className="size-3.5" aria-hidden /> {templateCheck.message}
            </p>
          )}
        </div>

        {template && template.variables.length === 0 && (
          <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">This template has no blanks to fill: every recipient gets the same text.</p>
        )}
        {template && template.variables.length > 0 && (
          <div className="grid gap-2">
            <div className="hidden grid-cols-[13rem_minmax(0,1fr)_minmax(0,1fr)] gap-2 px-0.5 text-xs font-medium text-muted-foreground sm:grid">
              <span>Template blank</span>
              <span>Fill with contact attribute</span>
              <span>Fallback if empty (optional)</span>
            </div>
            {template.variables.map((variable, index) => {
              const label = describeVariable(variable);
              const current = form.getValues(`messageConfig.variables.${index}.attribute`);
              const check = variableChecks.get(variable.key);
              const mapping = mappings?.[index];
              const emptyCount = emptyCounts?.[variable.key] ?? 0;
              const mightBeEmpty = mayBeEmpty(mapping, alwaysSent) && (!emptyCounts || emptyCount > 0);
              return (
                <div key={variable.key} className="grid gap-1">
                  <div className="grid items-center gap-2 sm:grid-cols-[13rem_minmax(0,1fr)_minmax(0,1fr)]">
                    <div className="min-w-0">
                      <p className="font-mono text-sm">{label}</p>
                      {variable.example && <p className="truncate text-xs text-muted-foreground">e.g. {variable.example}</p>}
                    </div>
                    <NativeSelect
                      aria-label={`Attribute for ${label}`}
                      aria-invalid={check ? true : undefined}
                      {...form.register(`messageConfig.variables.${index}.attribute`, { setValueAs: nullIfEmpty })}
                    >
                      <option value="">None (fallback only)</option>
                      {!fromContact && (
                        <optgroup label="From the trigger request">
                          {options.fromTrigger.map((a) => (
                            <option key={a} value={a}>
                              {a}
                            </option>
                          ))}
                        </optgroup>
                      )}
                      {options.stored.length > 0 && (
                        <optgroup label="Saved on the contact">
                          {options.stored.map((a) => (
                            <option key={a} value={a}>
                              {a}
                            </option>
                          ))}
                        </optgroup>
                      )}
                      {current && !allAttributes.includes(current) && <option value={current}>{current} (no longer mapped)</option>}
                    </NativeSelect>
                    <Input
                      aria-label={`Fallback for ${label}`}
                      placeholder={variable.example ? `e.g. ${variable.example}` : "optional"}
                      {...form.register(`messageConfig.variables.${index}.fallback`, { setValueAs: nullIfEmpty })}
                    />
                  </div>
                  {check ? (
                    <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-destructive">
                      <AlertCircle className="size-3.5" aria-hidden /> {check.message}
                    </p>
                  ) : (
                    mightBeEmpty && (
                      <p className="flex items-center gap-1.5 text-xs text-amber-700">
                        <Info className="size-3.5 shrink-0" aria-hidden />
                        {fromContact
                          ? emptyCounts
                            ? `${emptyCount.toLocaleString("en-US")} ${emptyCount === 1 ? "contact has" : "contacts have"} no ${mapping?.attribute}. Add a fallback, or they are skipped.`
                            : `Some contacts may not have ${mapping?.attribute}. Add a fallback, or they count as contacts with empty variables.`
                          : options.fromTrigger.includes(mapping?.attribute ?? "")
                            ? `${mapping?.attribute} is optional in the request. Add a fallback, or requests without a value are refused.`
                            : `${mapping?.attribute} comes from the saved contact, which may not have it yet. Add a fallback, or requests without a value are refused.`}
                      </p>
                    )
                  )}
                </div>
              );
            })}
            <p className="text-xs text-muted-foreground">
              The fallback is used when {fromContact ? "" : "the request and "}the contact {fromContact ? "has" : "have"} no value — for example &quot;there&quot; turns &quot;Hi {"{{1}}"}&quot; into &quot;Hi there&quot;.
            </p>
          </div>
        )}
        <CheckList checks={otherChecks} />
      </CardContent>
    </Card>
  );
}
