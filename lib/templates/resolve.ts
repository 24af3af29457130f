// Picks each template variable's value: the mapped contact attribute, else the fallback.
import type { MessageConfig } from "@/lib/campaigns/schemas";
import type { TemplateLike } from "./types";
import { listTemplateVariables } from "./variables";

export type ResolveResult = { ok: true; values: Record<string, string> } | { ok: false; missing: string[] };

/** Turns an attribute value into the text a template shows; empty values count as missing. */
export function attributeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "object") return null;
  const text = String(value);
  return text.trim() === "" ? null : text;
}

export function resolveVariableValues(config: MessageConfig, template: TemplateLike, attributes: Record<string, unknown>): ResolveResult {
  const byKey = new Map(config.variables.map((mapping) => [mapping.key, mapping]));
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const variable of listTemplateVariables(template)) {
    const mapping = byKey.get(variable.key);
    const fromAttribute = mapping?.attribute ? attributeText(attributes[mapping.attribute]) : null;
    const fallback = mapping?.fallback && mapping.fallback.trim() !== "" ? mapping.fallback : null;
    const value = fromAttribute ?? fallback;
    if (value === null) missing.push(variable.key);
    else values[variable.key] = value;
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, values };
}
