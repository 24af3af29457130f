"use client";

import { Input } from "@/components/ui/input";
import { alignVariables, nullIfEmpty } from "@/lib/campaigns/editor";
import type { SendStep } from "@/lib/campaigns/journey";
import { describeVariable } from "@/lib/templates/variables";
import { NativeSelect } from "../native-select";
import { TemplateOptions } from "../template-options";
import type { JourneyEnv } from "./env";
import { Row } from "./fields";

/** A send step: the template, a contact attribute (or fallback) for each of its blanks, and the sender. */
export function SendStepEditor({ step, env, onChange }: { step: SendStep; env: JourneyEnv; onChange: (step: SendStep) => void }) {
  const template = env.templates.find((t) => t.id === step.templateId);
  const allAttributes = [...env.attributes.fromTrigger, ...env.attributes.stored];
  const id = `step-${step.id}`;

  function chooseTemplate(templateId: string) {
    const next = env.templates.find((t) => t.id === templateId);
    onChange({ ...step, templateId, messageConfig: { variables: alignVariables(next, step.messageConfig.variables, allAttributes).map((v) => ({ key: v.key, attribute: v.attribute ?? null, fallback: v.fallback ?? null })) } });
  }
  function setVariable(key: string, change: { attribute?: string | null; fallback?: string | null }) {
    const known = step.messageConfig.variables.some((v) => v.key === key);
    const variables = known ? step.messageConfig.variables : [...step.messageConfig.variables, { key, attribute: null, fallback: null }];
    onChange({ ...step, messageConfig: { variables: variables.map((v) => (v.key === key ? { ...v, ...change } : v)) } });
  }

  return (
    <div className="grid gap-4">
      <Row label="Template" htmlFor={`${id}-template`}>
        <NativeSelect id={`${id}-template`} value={step.templateId} onChange={(event) => chooseTemplate(event.target.value)}>
          <TemplateOptions templates={env.templates} chosenId={step.templateId} />
        </NativeSelect>
      </Row>
      {template && template.variables.length > 0 && (
        <div className="grid gap-2">
          <p className="text-sm font-medium">Fill each blank</p>
          {template.variables.map((variable) => {
            const label = describeVariable(variable);
            const mapping = step.messageConfig.variables.find((v) => v.key === variable.key);
            const missing = !mapping?.attribute && !mapping?.fallback?.trim();
            return (
              <div key={variable.key} className="grid items-center gap-2 @lg:grid-cols-[8rem_minmax(0,1fr)_minmax(0,1fr)]">
                <span className="font-mono text-sm">{label}</span>
                <NativeSelect
                  aria-label={`Attribute for ${label}`}
                  aria-invalid={missing ? true : undefined}
                  value={mapping?.attribute ?? ""}
                  onChange={(event) => setVariable(variable.key, { attribute: nullIfEmpty(event.target.value) as string | null })}
                >
                  <option value="">None (fallback only)</option>
                  <optgroup label="From the trigger request">
                    {env.attributes.fromTrigger.map((a) => (
                      <option key={a} value={a}>
                        {a}
                      </option>
                    ))}
                  </optgroup>
                  {env.attributes.stored.length > 0 && (
                    <optgroup label="Saved on the contact">
                      {env.attributes.stored.map((a) => (
                        <option key={a} value={a}>
                          {a}
                        </option>
                      ))}
                    </optgroup>
                  )}
                  {mapping?.attribute && !allAttributes.includes(mapping.attribute) && <option value={mapping.attribute}>{mapping.attribute} (no longer mapped)</option>}
                </NativeSelect>
                <Input
                  aria-label={`Fallback for ${label}`}
                  placeholder={variable.example ? `e.g. ${variable.example}` : "optional"}
                  value={mapping?.fallback ?? ""}
                  onChange={(event) => setVariable(variable.key, { fallback: nullIfEmpty(event.target.value) as string | null })}
                />
              </div>
            );
          })}
        </div>
      )}
      <Row label="Sender" htmlFor={`${id}-sender`} hint="Quiet hours, the frequency cap and consent apply to every send step.">
        <NativeSelect id={`${id}-sender`} value={step.senderId ?? ""} onChange={(event) => onChange({ ...step, senderId: (nullIfEmpty(event.target.value) as string | null) ?? null })}>
          <option value="">The campaign&apos;s sender</option>
          {env.senders.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} · {s.number}
            </option>
          ))}
        </NativeSelect>
      </Row>
    </div>
  );
}
