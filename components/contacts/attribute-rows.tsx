"use client";

import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { isIdentifier } from "@/lib/contacts/identifiers";
import { humanizeKey } from "./format";

export interface AttributeRow {
  key: string;
  value: string;
}

/** Text values; `true`/`false` and numbers stay text unless the attribute is defined with a type (the API says so). */
export function attributeValues(rows: AttributeRow[]): { ok: true; values: Record<string, string> } | { ok: false; error: string } {
  const values: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (!key && !row.value.trim()) continue;
    if (!isIdentifier(key)) return { ok: false, error: `"${key}" is not an attribute key: letters, digits and _, not starting with a digit.` };
    values[key] = row.value;
  }
  return { ok: true, values };
}

/** Optional key/value rows of a new contact's attributes. */
export function AttributeRows({ rows, onChange, error }: { rows: AttributeRow[]; onChange: (rows: AttributeRow[]) => void; error?: string }) {
  const set = (index: number, patch: Partial<AttributeRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Attributes (optional)</legend>
      {rows.map((row, index) => (
        <div key={index} className="grid grid-cols-[1fr_1fr_auto] gap-2">
          <Input aria-label={`Attribute ${index + 1} key`} value={row.key} placeholder="first_name" onChange={(event) => set(index, { key: event.target.value })} className="font-mono" />
          <Input aria-label={row.key ? `${humanizeKey(row.key)} value` : `Attribute ${index + 1} value`} value={row.value} onChange={(event) => set(index, { value: event.target.value })} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove attribute ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            <X aria-hidden />
          </Button>
        </div>
      ))}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...rows, { key: "", value: "" }])}>
          <Plus aria-hidden />Add attribute
        </Button>
      </div>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </fieldset>
  );
}
