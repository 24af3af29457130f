"use client";

import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { JourneyStep } from "@/lib/campaigns/journey";
import type { JourneyEnv } from "./env";

type UpdateStep = Extract<JourneyStep, { type: "update_contact" }>;

function ListChoice({ legend, chosen, env, onChange }: { legend: string; chosen: string[]; env: JourneyEnv; onChange: (ids: string[]) => void }) {
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {env.lists.length === 0 && <p className="text-xs text-muted-foreground">No lists yet: create them under Contacts → Lists.</p>}
      {env.lists.map((list) => (
        <label key={list.id} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={chosen.includes(list.id)} onChange={(e) => onChange(e.target.checked ? [...chosen, list.id] : chosen.filter((id) => id !== list.id))} />
          {list.name}
        </label>
      ))}
    </fieldset>
  );
}

/** Update the contact: set attributes, add to or remove from lists. */
export function UpdateContactStepEditor({ step, env, onChange }: { step: UpdateStep; env: JourneyEnv; onChange: (step: UpdateStep) => void }) {
  const setRow = (index: number, change: Partial<UpdateStep["set"][number]>) => onChange({ ...step, set: step.set.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Set attributes</legend>
        {step.set.map((row, index) => (
          <div key={index} className="grid items-center gap-2 @md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
            <Input aria-label={`Attribute ${index + 1}`} placeholder="attribute, e.g. vip" list={`attributes-${step.id}`} value={row.attribute} onChange={(e) => setRow(index, { attribute: e.target.value })} />
            <Input aria-label={`Value of attribute ${index + 1}`} placeholder="value" value={row.value === null ? "" : String(row.value)} onChange={(e) => setRow(index, { value: e.target.value })} />
            <Button type="button" variant="ghost" size="icon" aria-label={`Remove attribute ${index + 1}`} onClick={() => onChange({ ...step, set: step.set.filter((_, i) => i !== index) })}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        <datalist id={`attributes-${step.id}`}>
          {[...env.attributes.fromTrigger, ...env.attributes.stored].map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <Button type="button" variant="link" size="sm" className="justify-self-start px-0" onClick={() => onChange({ ...step, set: [...step.set, { attribute: "", value: "" }] })}>
          <Plus aria-hidden /> Set another attribute
        </Button>
      </fieldset>
      <div className="grid gap-4 @md:grid-cols-2">
        <ListChoice legend="Add to lists" chosen={step.addToListIds} env={env} onChange={(addToListIds) => onChange({ ...step, addToListIds })} />
        <ListChoice legend="Remove from lists" chosen={step.removeFromListIds} env={env} onChange={(removeFromListIds) => onChange({ ...step, removeFromListIds })} />
      </div>
    </div>
  );
}
