// Column mapping of the import wizard: guesses from headers and sample values, validation, and the
// `columns` member of `POST /api/v1/imports`.
import { CONSENT_PRESETS, consentKey, type ConsentPreset } from "@/lib/imports/consent-values";

import type { AttributeDefinition, AttributeType, ColumnTarget, ConsentStatus } from "../types";

export { CONSENT_PRESETS, consentKey, type ConsentPreset };

/** A consent column: each value of the column (lower case, trimmed) → a status; values left out refuse their row. */
export type ConsentValues = Record<string, ConsentStatus>;

export type ColumnChoice =
  | { kind: "phone" | "name" | "skip" }
  | { kind: "consent"; preset: ConsentPreset; values: ConsentValues }
  | { kind: "existing"; key: string }
  | { kind: "new"; key: string; attributeType: AttributeType };

/** The preset whose values cover the column's values best (yes/no for `Yes`, `no`…). */
export function presetFor(values: string[], optedOutColumn = false): ConsentPreset {
  if (optedOutColumn) return "opted_out";
  const seen = [...new Set(values.map(consentKey).filter(Boolean))];
  if (seen.length === 0) return "yes_no";
  for (const preset of ["yes_no", "true_false", "one_zero", "subscribed"] as const) {
    if (seen.every((value) => value in CONSENT_PRESETS[preset].values)) return preset;
  }
  return "custom";
}

/** A preset's mapping, plus every other value of the column left unmapped (its rows are refused). */
export function consentChoice(preset: ConsentPreset): ColumnChoice {
  return { kind: "consent", preset, values: { ...CONSENT_PRESETS[preset].values } };
}

/** True when a consent column maps some value to subscribed: the import then needs the permission confirmation. */
export function subscribesContacts(choices: ColumnChoice[]): boolean {
  return choices.some((choice) => choice.kind === "consent" && Object.values(choice.values).includes("subscribed"));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED = new Set(["phoneNumber", "name"]);

const normalize = (header: string) => header.trim().toLowerCase().replace(/[^a-z0-9]+/g, "");

const PHONE_HEADERS = new Set(["phone", "phonenumber", "mobile", "mobilenumber", "msisdn", "whatsapp", "whatsappnumber", "tel", "telephone", "cell", "number"]);
const NAME_HEADERS = new Set(["name", "fullname", "contactname", "firstname"]);
const OPT_OUT_HEADERS = new Set(["optedout", "optout", "unsubscribed", "donotcontact"]);
const CONSENT_HEADERS = new Set(["optin", "optedin", "consent", "subscribed", "marketingconsent", "marketingoptin", "acceptsmarketing", "whatsappoptin"]);

/** A header as an attribute key: `First purchase` → `first_purchase`. */
export function attributeKeyFor(header: string): string {
  let key = header
    .trim()
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  if (!/^[a-z_]/.test(key)) key = `_${key}`;
  return key.slice(0, 64) || "attribute";
}

/** The type the sample values suggest. */
export function guessType(values: string[]): AttributeType {
  const filled = values.map((value) => value.trim()).filter(Boolean);
  if (filled.length === 0) return "string";
  if (filled.every((value) => /^-?\d+(\.\d+)?$/.test(value))) return "number";
  if (filled.every((value) => /^(true|false|yes|no)$/i.test(value))) return "boolean";
  if (filled.every((value) => /^\d{4}-\d{2}-\d{2}$/.test(value))) return "date";
  return "string";
}

export function guessColumns(headers: string[], rows: string[][], existing: AttributeDefinition[]): ColumnChoice[] {
  const taken = new Set<string>();
  return headers.map((header, index) => {
    const normalized = normalize(header);
    const pick = (kind: "phone" | "name"): ColumnChoice | null => {
      if (taken.has(kind)) return null;
      taken.add(kind);
      return { kind };
    };
    const pickConsent = (optedOut: boolean): ColumnChoice | null => {
      if (taken.has("consent")) return null;
      taken.add("consent");
      return consentChoice(presetFor(rows.map((row) => row[index] ?? ""), optedOut));
    };
    if (PHONE_HEADERS.has(normalized)) {
      const choice = pick("phone");
      if (choice) return choice;
    }
    if (NAME_HEADERS.has(normalized)) {
      const choice = pick("name");
      if (choice) return choice;
    }
    if (OPT_OUT_HEADERS.has(normalized) || CONSENT_HEADERS.has(normalized)) {
      const choice = pickConsent(OPT_OUT_HEADERS.has(normalized));
      if (choice) return choice;
    }
    const match = existing.find((attribute) => normalize(attribute.key) === normalized);
    if (match) return { kind: "existing", key: match.key };
    if (!header.trim()) return { kind: "skip" };
    return { kind: "new", key: attributeKeyFor(header), attributeType: guessType(rows.map((row) => row[index] ?? "")) };
  });
}

/** Problems per column index, plus one for the mapping as a whole. */
export function validateColumns(choices: ColumnChoice[], existing: AttributeDefinition[]): { columns: Record<number, string>; overall: string | null } {
  const columns: Record<number, string> = {};
  const phones = choices.filter((choice) => choice.kind === "phone").length;
  const overall = phones === 0 ? "Map one column to Phone number." : null;
  const seen = new Map<string, number>();
  choices.forEach((choice, index) => {
    if ((choice.kind === "phone" || choice.kind === "name" || choice.kind === "consent") && choices.findIndex((c) => c.kind === choice.kind) !== index) {
      columns[index] = "Another column is already mapped to this.";
    }
    if (choice.kind === "consent" && Object.keys(choice.values).length === 0) columns[index] = "Map at least one value to a consent status.";
    if (choice.kind !== "existing" && choice.kind !== "new") return;
    const key = choice.key.trim();
    if (!IDENTIFIER.test(key)) columns[index] = "Use letters, digits and underscores, starting with a letter or underscore.";
    else if (RESERVED.has(key)) columns[index] = `"${key}" is built in; map the column to Phone number or Name instead.`;
    else if (choice.kind === "new" && existing.some((attribute) => attribute.key === key)) columns[index] = `"${key}" already exists; pick it from the existing attributes.`;
    else if (seen.has(key)) columns[index] = `Column ${seen.get(key)! + 1} is already mapped to "${key}".`;
    seen.set(key, index);
  });
  return { columns, overall };
}

export function toColumnTargets(headers: string[], choices: ColumnChoice[], existing: AttributeDefinition[]) {
  return choices.map((choice, index) => {
    let target: ColumnTarget;
    if (choice.kind === "existing") {
      target = { type: "attribute", key: choice.key, attributeType: existing.find((attribute) => attribute.key === choice.key)?.type ?? "string" };
    } else if (choice.kind === "new") {
      target = { type: "attribute", key: choice.key.trim(), attributeType: choice.attributeType };
    } else if (choice.kind === "consent") {
      target = { type: "consent", values: choice.values };
    } else {
      target = { type: choice.kind };
    }
    return { index, header: headers[index] ?? "", target };
  });
}
