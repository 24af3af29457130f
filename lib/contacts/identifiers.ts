// Names of contact attributes and request fields, and the attributes every contact has: the
// vocabulary contacts, audiences, campaigns and the trigger endpoint share.
import { z } from "zod";

/** JSON-safe identifier used for request field names and contact attribute names. */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const IDENTIFIER_MESSAGE = "Use letters, digits and underscores only, starting with a letter or underscore (at most 64 characters).";

/** Contact attributes stored in their own columns; every other attribute lives in `contacts.attributes`. */
export const PHONE_ATTRIBUTE = "phoneNumber";
export const NAME_ATTRIBUTE = "name";
export const BUILT_IN_ATTRIBUTES = [PHONE_ATTRIBUTE, NAME_ATTRIBUTE] as const;

/**
 * Names JavaScript objects give a meaning of their own: as a key, `__proto__` is dropped (or swaps
 * the object's prototype) and `constructor` reads back as a built-in function where a record lacks
 * it. A field or attribute so named would be stored half (its definition) and lost half (its values).
 */
export const RESERVED_IDENTIFIERS: readonly string[] = ["__proto__", "constructor", "prototype"];
const RESERVED_MESSAGE = "`__proto__`, `constructor` and `prototype` are reserved names; pick another.";

/** Whether a name can be a request field or a contact attribute. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER_PATTERN.test(name) && !RESERVED_IDENTIFIERS.includes(name);
}

export const identifierSchema = z
  .string()
  .trim()
  .regex(IDENTIFIER_PATTERN, IDENTIFIER_MESSAGE)
  .refine((name) => !RESERVED_IDENTIFIERS.includes(name), { message: RESERVED_MESSAGE, params: { code: "reserved_name" } });

/**
 * An object keyed by identifiers (a contact's attributes). zod leaves a `__proto__` member out of a
 * record without a word, so it is refused here, before the record is read, like the other reserved names.
 */
export function identifierRecord<V extends z.ZodType>(valueSchema: V) {
  return z.preprocess((input, ctx) => {
    if (typeof input === "object" && input !== null && Object.hasOwn(input, "__proto__")) {
      ctx.addIssue({ code: "custom", path: ["__proto__"], message: RESERVED_MESSAGE, params: { code: "reserved_name" }, input });
    }
    return input;
  }, z.record(identifierSchema, valueSchema));
}

/** Longest text accepted for a `string` field or attribute; WhatsApp caps a body parameter well below this. */
export const MAX_STRING_FIELD_LENGTH = 4096;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
