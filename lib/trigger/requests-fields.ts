// Fields offered from a recorded request: each top-level value of its body with a guessed type, and
// the field that holds the phone number. The builder's "listen for a test request" shows these for
// the user to confirm.
import { isIdentifier, type FieldType } from "@/lib/campaigns/schemas";
import { isE164PhoneNumber, normalizePhoneNumber } from "./validation";

export interface GuessedField {
  field: string;
  type: FieldType;
  /** The value as received, shortened for display. */
  sample: string;
}

export interface GuessedMapping {
  /** The field holding a phone number (a name like `phone` preferred), or null when none does. */
  phoneField: string | null;
  /** Every other mappable field, in body order. */
  fields: GuessedField[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const PHONE_NAME = /phone|mobile|whatsapp|msisdn|cell|^tel/i;

/** The guessed mapping of a recorded body, or null when it is not a JSON object (or array of them). */
export function guessFieldsFromBody(body: string): GuessedMapping | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const item = Array.isArray(value) ? value[0] : value;
  if (typeof item !== "object" || item === null || Array.isArray(item)) return null;

  const phones: string[] = [];
  const fields: GuessedField[] = [];
  for (const [field, raw] of Object.entries(item as Record<string, unknown>)) {
    if (!isIdentifier(field) || raw === null || typeof raw === "object") continue;
    if (typeof raw === "string" && isE164PhoneNumber(normalizePhoneNumber(raw))) phones.push(field);
    fields.push({ field, type: guessType(raw), sample: String(raw).slice(0, 60) });
  }
  const phoneField = phones.find((field) => PHONE_NAME.test(field)) ?? phones[0] ?? null;
  return { phoneField, fields: fields.filter((f) => f.field !== phoneField) };
}

export function guessType(value: unknown): FieldType {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  const text = String(value).trim();
  if (EMAIL.test(text)) return "email";
  if (ISO_DATE.test(text) && !Number.isNaN(Date.parse(text))) return "date";
  return "string";
}
