// Fields offered from a recorded request: every leaf of its body (nested ones by their full path,
// array items as `[0]`) with a guessed type, the path that holds the phone number with other
// phone paths as fallbacks, and a country-code path. The builder's "listen for a test request"
// shows these on the body's tree for the user to confirm.
import { isIdentifier, type FieldType } from "@/lib/campaigns/schemas";
import { formatFieldPath, joinedKeys, lastKey, MAX_FIELD_PATH_DEPTH, type PathStep } from "./field-path";
import { countryCode, isE164PhoneNumber, normalizePhoneNumber } from "./validation";

export interface GuessedField {
  field: string;
  type: FieldType;
  /** The value as received, shortened for display. */
  sample: string;
}

export interface GuessedMapping {
  /** The path holding a phone number (a name like `phone` preferred), or null when none does. */
  phoneField: string | null;
  /** Other paths holding a phone number under a phone-like name, in body order (at most 5). */
  phoneFallbacks: string[];
  /** A path holding a 2-letter country code under a country-like name, or null. */
  countryField: string | null;
  /** Every other mappable leaf, in body order. */
  fields: GuessedField[];
  /** The parsed body, for showing it as a tree. */
  body: unknown;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const PHONE_NAME = /phone|mobile|whatsapp|msisdn|cell|^tel/i;
const NATIONAL_PHONE = /^[\d\s.()-]{6,20}$/;
const COUNTRY_NAME = /country_?code|^country$/i;
const PATH_KEY = /^[A-Za-z0-9_-]+$/;
const MAX_LEAVES = 300;
const MAX_ARRAY_ITEMS = 5;

export interface BodyLeaf {
  path: string;
  value: string | number | boolean;
}

/**
 * The scalar leaves of a body in document order, by full path: at most 300, 10 levels and the
 * first 5 items of each array; keys a path cannot spell are left out with what is under them.
 */
export function bodyLeaves(item: unknown): BodyLeaf[] {
  const leaves: BodyLeaf[] = [];
  const walk = (value: unknown, steps: PathStep[]) => {
    if (leaves.length >= MAX_LEAVES) return;
    if (Array.isArray(value)) {
      if (steps.length >= MAX_FIELD_PATH_DEPTH) return;
      value.slice(0, MAX_ARRAY_ITEMS).forEach((child, index) => walk(child, [...steps, { kind: "index", index }]));
    } else if (typeof value === "object" && value !== null) {
      if (steps.length >= MAX_FIELD_PATH_DEPTH) return;
      for (const [key, child] of Object.entries(value)) {
        if (PATH_KEY.test(key) && !["__proto__", "constructor", "prototype"].includes(key)) walk(child, [...steps, { kind: "key", key }]);
      }
    } else if (steps.length > 0 && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) {
      leaves.push({ path: formatFieldPath(steps), value });
    }
  };
  walk(item, []);
  return leaves;
}

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

  const leaves = bodyLeaves(item);
  const countryField = leaves.find((leaf) => COUNTRY_NAME.test(lastKey(leaf.path) ?? "") && countryCode(leaf.value) !== null)?.path ?? null;
  const phones: { path: string; named: boolean }[] = [];
  for (const leaf of leaves) {
    if (typeof leaf.value !== "string") continue;
    const named = PHONE_NAME.test(lastKey(leaf.path) ?? "");
    const international = isE164PhoneNumber(normalizePhoneNumber(leaf.value));
    // A national number counts only under a phone-like name, and only with a country to read it in.
    if (international || (named && countryField !== null && NATIONAL_PHONE.test(leaf.value.trim()))) phones.push({ path: leaf.path, named });
  }
  const ordered = [...phones.filter((p) => p.named), ...phones.filter((p) => !p.named)];
  const phoneField = ordered[0]?.path ?? null;
  const phoneFallbacks = ordered.slice(1).filter((p) => p.named).map((p) => p.path).slice(0, 5);
  const taken = new Set([phoneField, ...phoneFallbacks]);
  const fields = leaves
    .filter((leaf) => !taken.has(leaf.path))
    .map((leaf) => ({ field: leaf.path, type: guessType(leaf.value), sample: String(leaf.value).slice(0, 60) }));
  return { phoneField, phoneFallbacks, countryField, fields, body: value };
}

/**
 * A contact attribute name for a path not yet used: its last key (`customer.first_name` →
 * `first_name`), else its keys joined (`customer_first_name`), else numbered.
 */
export function attributeForPath(path: string, taken: ReadonlySet<string>): string {
  const clean = (name: string) => {
    const text = name.replace(/-/g, "_").replace(/^(\d)/, "_$1").slice(0, 64);
    return isIdentifier(text) ? text : "field";
  };
  const candidates = [clean(lastKey(path) ?? "field"), clean(joinedKeys(path))];
  for (const candidate of candidates) if (!taken.has(candidate)) return candidate;
  for (let n = 2; ; n++) {
    const numbered = `${candidates[1]!.slice(0, 60)}_${n}`;
    if (!taken.has(numbered)) return numbered;
  }
}

export function guessType(value: unknown): FieldType {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  const text = String(value).trim();
  if (EMAIL.test(text)) return "email";
  if (ISO_DATE.test(text) && !Number.isNaN(Date.parse(text))) return "date";
  return "string";
}
