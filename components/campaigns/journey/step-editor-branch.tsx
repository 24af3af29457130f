"use client";

import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { CONDITION_OPERATORS, MAX_BRANCH_PATHS, MAX_CONDITIONS, type ConditionSubject, type JourneyCondition, type JourneyStep } from "@/lib/campaigns/journey";
import { NativeSelect } from "../native-select";
import type { JourneyEnv } from "./env";

type BranchStep = Extract<JourneyStep, { type: "branch" }>;

const SUBJECT_LABELS: Record<ConditionSubject["kind"], string> = {
  attribute: "Contact attribute",
  trigger: "Trigger field",
  last_message_status: "Last message status",
  reply_text: "Reply text",
  button_payload: "Button tapped",
};
const OPERATOR_LABELS: Record<JourneyCondition["operator"], string> = {
  equals: "equals",
  not_equals: "does not equal",
  contains: "contains",
  exists: "is set",
  not_exists: "is not set",
  greater_than: "greater than",
  less_than: "less than",
};

function subjectOf(kind: ConditionSubject["kind"], env: JourneyEnv): ConditionSubject {
  if (kind === "attribute") return { kind, attribute: env.attributes.fromTrigger[0] ?? "" };
  if (kind === "trigger") return { kind, field: env.mappedFields[0] ?? "" };
  return { kind };
}

function ConditionRow({ label, condition, env, onChange, onRemove }: { label: string; condition: JourneyCondition; env: JourneyEnv; onChange: (c: JourneyCondition) => void; onRemove?: () => void }) {
  const subject = condition.subject;
  const valued = condition.operator !== "exists" && condition.operator !== "not_exists";
  return (
    <div className="grid items-center gap-2 @md:grid-cols-2 @3xl:grid-cols-[10rem_minmax(0,1fr)_9rem_minmax(0,1fr)_auto]">
      <NativeSelect aria-label={`${label}: compare`} value={subject.kind} onChange={(e) => onChange({ ...condition, subject: subjectOf(e.target.value as ConditionSubject["kind"], env) })}>
        {Object.entries(SUBJECT_LABELS).map(([kind, text]) => (
          <option key={kind} value={kind}>
            {text}
          </option>
        ))}
      </NativeSelect>
      {subject.kind === "attribute" ? (
        <NativeSelect aria-label={`${label}: attribute`} value={subject.attribute} onChange={(e) => onChange({ ...condition, subject: { kind: "attribute", attribute: e.target.value } })}>
          <option value="">Choose…</option>
          {[...env.attributes.fromTrigger, ...env.attributes.stored].map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </NativeSelect>
      ) : subject.kind === "trigger" ? (
        <NativeSelect aria-label={`${label}: trigger field`} value={subject.field} onChange={(e) => onChange({ ...condition, subject: { kind: "trigger", field: e.target.value } })}>
          <option value="">Choose a mapped field…</option>
          {env.mappedFields.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
          {subject.field && !env.mappedFields.includes(subject.field) && <option value={subject.field}>{subject.field} (not mapped)</option>}
        </NativeSelect>
      ) : (
        <span className="text-xs text-muted-foreground">{subject.kind === "last_message_status" ? "sent, delivered, read or failed" : "of the contact's last reply"}</span>
      )}
      <NativeSelect aria-label={`${label}: operator`} value={condition.operator} onChange={(e) => onChange({ ...condition, operator: e.target.value as JourneyCondition["operator"] })}>
        {CONDITION_OPERATORS.map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </NativeSelect>
      {valued ? (
        <Input aria-label={`${label}: value`} value={condition.value === null ? "" : String(condition.value)} onChange={(e) => onChange({ ...condition, value: e.target.value === "" ? null : e.target.value })} />
      ) : (
        <span aria-hidden />
      )}
      {onRemove ? (
        <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
          <Trash2 aria-hidden />
        </Button>
      ) : (
        <span aria-hidden />
      )}
    </div>
  );
}

/** A branch: named paths, each taken when all of its conditions hold (the first that holds wins), and otherwise. */
export function BranchStepEditor({ step, env, onChange }: { step: BranchStep; env: JourneyEnv; onChange: (step: BranchStep) => void }) {
  const setPath = (index: number, change: Partial<BranchStep["paths"][number]>) => onChange({ ...step, paths: step.paths.map((p, i) => (i === index ? { ...p, ...change } : p)) });
  return (
    <div className="grid gap-4">
      {step.paths.map((path, index) => (
        <fieldset key={index} className="grid gap-2 rounded-lg border p-3">
          <legend className="px-1 text-sm font-medium">Path {index + 1}</legend>
          <div className="flex gap-2">
            <Input aria-label={`Path ${index + 1} name`} value={path.name} onChange={(e) => setPath(index, { name: e.target.value })} />
            {step.paths.length > 1 && (
              <Button type="button" variant="ghost" onClick={() => onChange({ ...step, paths: step.paths.filter((_, i) => i !== index), elseNext: step.elseNext ?? path.next })}>
                <Trash2 aria-hidden /> Remove path {index + 1}
              </Button>
            )}
          </div>
          {path.conditions.map((condition, c) => (
            <ConditionRow
              key={c}
              label={`Path ${index + 1} condition ${c + 1}`}
              condition={condition}
              env={env}
              onChange={(next) => setPath(index, { conditions: path.conditions.map((x, i) => (i === c ? next : x)) })}
              onRemove={path.conditions.length > 1 ? () => setPath(index, { conditions: path.conditions.filter((_, i) => i !== c) }) : undefined}
            />
          ))}
          {path.conditions.length < MAX_CONDITIONS && (
            <Button
              type="button"
              variant="link"
              size="sm"
              className="justify-self-start px-0"
              onClick={() => setPath(index, { conditions: [...path.conditions, { subject: subjectOf("attribute", env), operator: "equals", value: null }] })}
            >
              <Plus aria-hidden /> And another condition on path {index + 1}
            </Button>
          )}
        </fieldset>
      ))}
      {step.paths.length < MAX_BRANCH_PATHS && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => onChange({ ...step, paths: [...step.paths, { name: `Path ${step.paths.length + 1}`, conditions: [{ subject: { kind: "reply_text" }, operator: "equals", value: null }], next: null }] })}
        >
          <Plus aria-hidden /> Add a path
        </Button>
      )}
      <p className="text-xs text-muted-foreground">The first path whose conditions all hold is taken; when none holds, the contact goes on “Otherwise”.</p>
    </div>
  );
}
