"use client";

import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { humanizeKey } from "./format";
import type { AttributeDefinition, AttributeType, Contact } from "./types";

type Draft = Record<string, string>;

function toDraft(value: unknown, type: AttributeType): string {
  if (value === null || value === undefined) return "";
  if (type === "boolean") return value === true ? "true" : value === false ? "false" : String(value);
  return String(value);
}

/** The typed value a field's text stands for; `null` removes the attribute, `undefined` is invalid. */
function fromDraft(text: string, type: AttributeType): string | number | boolean | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (type === "number") {
    const n = Number(trimmed);
    return Number.isFinite(n) ? n : undefined;
  }
  if (type === "boolean") return trimmed === "true";
  return type === "date" ? trimmed : text;
}

/** Name and typed attributes, saved together with one PATCH (changed keys only; an emptied field removes its key). */
export function AttributesForm({ contact, definitions, onSaved }: { contact: Contact; definitions: AttributeDefinition[]; onSaved: () => void }) {
  const fields = React.useMemo(() => {
    const known = new Map(definitions.map((definition) => [definition.key, definition.type]));
    for (const [key, value] of Object.entries(contact.attributes ?? {})) {
      if (!known.has(key)) known.set(key, typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "string");
    }
    return [...known.entries()].map(([key, type]) => ({ key, type }));
  }, [contact.attributes, definitions]);
  const initial = React.useMemo(
    () => Object.fromEntries(fields.map((field) => [field.key, toDraft(contact.attributes?.[field.key], field.type)])),
    [contact.attributes, fields],
  );
  const [name, setName] = React.useState(contact.name ?? "");
  const [draft, setDraft] = React.useState<Draft>(initial);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [saving, setSaving] = React.useState(false);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const attributes: Record<string, unknown> = {};
    const invalid: Record<string, string> = {};
    for (const field of fields) {
      if ((draft[field.key] ?? "") === (initial[field.key] ?? "")) continue;
      const value = fromDraft(draft[field.key] ?? "", field.type);
      if (value === undefined) invalid[field.key] = "Enter a number.";
      else attributes[field.key] = value;
    }
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    const body: Record<string, unknown> = {};
    if (name.trim() !== (contact.name ?? "")) body.name = name.trim() === "" ? null : name.trim();
    if (Object.keys(attributes).length > 0) body.attributes = attributes;
    if (Object.keys(body).length === 0) {
      toast.info("Nothing changed.");
      return;
    }
    setSaving(true);
    const result = await requestJson(`/api/v1/contacts/${contact.id}`, { method: "PATCH", body });
    setSaving(false);
    if (!result.ok) {
      const fieldErrors: Record<string, string> = {};
      for (const error of result.problem.errors ?? []) fieldErrors[error.path.replace(/^attributes\./, "")] = error.message;
      setErrors(fieldErrors);
      toast.error(result.problem.detail);
      return;
    }
    toast.success("Contact saved.");
    onSaved();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Attributes</CardTitle>
        <CardDescription>Values templates and segments use. Empty a field to remove it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={save} aria-label="Contact attributes" className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="contact-name" label="Name" error={errors.name} className="content-start">
              <Input {...fieldAria("contact-name", errors.name)} value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
            </FormField>
            {fields.map((field) => {
              const id = `attribute-${field.key}`;
              const value = draft[field.key] ?? "";
              const set = (next: string) => setDraft((current) => ({ ...current, [field.key]: next }));
              return (
                <FormField key={field.key} id={id} label={<span title={field.key}>{humanizeKey(field.key)}</span>} error={errors[field.key]} hint={field.type} className="content-start">
                  {field.type === "boolean" ? (
                    <NativeSelect {...fieldAria(id, errors[field.key], true)} value={value} onChange={(event) => set(event.target.value)}>
                      <option value="">Not set</option>
                      <option value="true">Yes</option>
                      <option value="false">No</option>
                    </NativeSelect>
                  ) : (
                    <Input
                      {...fieldAria(id, errors[field.key], true)}
                      type={field.type === "date" ? "date" : "text"}
                      inputMode={field.type === "number" ? "decimal" : undefined}
                      value={value}
                      onChange={(event) => set(event.target.value)}
                    />
                  )}
                </FormField>
              );
            })}
          </div>
          {fields.length === 0 && <p className="text-sm text-muted-foreground">No attributes yet. Imports and the API define them.</p>}
          <div>
            <Button type="submit" disabled={saving}>{saving ? "Saving…" : "Save changes"}</Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
