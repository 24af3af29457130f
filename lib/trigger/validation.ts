// Validation of trigger request bodies, built from the campaign's trigger node.
import { z } from "zod";
import { MAX_STRING_FIELD_LENGTH } from "@/lib/contacts/identifiers";
import { e164PhoneSchema, E164, isE164PhoneNumber } from "@/lib/contacts/phone";
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE, type FieldType, type TriggerConfig } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/problem";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";

export const MAX_BATCH_SIZE = 100;

export { e164PhoneSchema, isE164PhoneNumber, MAX_STRING_FIELD_LENGTH };

// A written-out international number: `+`, then digits grouped by spaces, dots, dashes or parentheses.
const FORMATTED_INTERNATIONAL = /^\+[\d\s.()-]+$/;
const NATIONAL_LOOKING = /^[\d\s.()-]+$/;

/**
 * `+1 (415) 555-2671` → `+14155552671`: separators are dropped only when the number starts with `+`,
 * because then the country code is written out and nothing is guessed. Anything else is returned as is.
 */
export function normalizePhoneNumber(value: string): string {
  const trimmed = value.trim();
  return FORMATTED_INTERNATIONAL.test(trimmed) ? `+${trimmed.slice(1).replace(/[\s.()-]/g, "")}` : value;
}

const NO_COUNTRY_CODE_MESSAGE =
  "The phone number has no + and country code; the country would be a guess, so it is refused. Send it in E.164 format, such as +14155552671.";

/** The phone field: a string, normalised to E.164 when written with a `+` and separators. */
const triggerPhoneSchema = z.unknown().transform((value, ctx) => {
  if (value === undefined || value === null) {
    ctx.addIssue({ code: "custom", message: "Required: the phone number in E.164 format, such as +14155552671.", params: { code: "required" } });
    return z.NEVER;
  }
  if (typeof value === "number" || (typeof value === "string" && NATIONAL_LOOKING.test(value.trim()) && /\d/.test(value))) {
    ctx.addIssue({ code: "custom", message: NO_COUNTRY_CODE_MESSAGE, params: { code: "invalid_phone" } });
    return z.NEVER;
  }
  const result = e164PhoneSchema.safeParse(typeof value === "string" ? normalizePhoneNumber(value) : value);
  if (!result.success) {
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, params: { code: "invalid_phone" } });
    return z.NEVER;
  }
  return result.data;
});

const NUMBER_AS_TEXT_MESSAGE =
  "Expected a string. Numbers are accepted as their decimal text, but this one has no exact decimal form here (too large, too small, or written with an exponent); send it as a string.";

/**
 * A number sent for a string field becomes its decimal text (`10482` → `"10482"`, `19.99` → `"19.99"`),
 * as stores such as Shopify send order numbers as JSON numbers. Only when that text is exact: integers
 * beyond 2^53 were already rounded by JSON parsing, and values JavaScript writes with an exponent
 * (`1e21`, `1e-7`) are refused rather than spelled differently from what was sent.
 */
export function numberAsText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return null;
  const text = String(value);
  return /e/i.test(text) ? null : text;
}

const DATE_MESSAGE = "Expected a date in ISO 8601 format, such as 2026-05-31 or 2026-05-31T14:00:00Z.";
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
const isoDateSchema = z
  .string({ error: DATE_MESSAGE })
  .refine((value) => isoDate.safeParse(value).success || isoDateTime.safeParse(value).success, {
    message: DATE_MESSAGE,
    params: { code: "invalid_format" },
  });

const fieldSchemas: Record<FieldType, z.ZodType> = {
  string: z
    .preprocess(
      (value, ctx) => {
        if (typeof value !== "number") return value;
        const text = numberAsText(value);
        if (text === null) ctx.addIssue({ code: "custom", message: NUMBER_AS_TEXT_MESSAGE, params: { code: "invalid_type" } });
        return text ?? value;
      },
      z
        .string({ error: "Expected a string." })
        .max(MAX_STRING_FIELD_LENGTH, `At most ${MAX_STRING_FIELD_LENGTH} characters.`)
        .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } }),
    ),
  number: z.number({ error: "Expected a number." }).refine(Number.isFinite, "Expected a finite number."),
  boolean: z.boolean({ error: "Expected true or false." }),
  email: z.email({ error: "Expected an email address." }).max(320, "At most 320 characters."),
  date: isoDateSchema,
};

/** One validated request item: the phone and the contact attributes its mapped fields set. */
export interface TriggerItem {
  phone: string;
  /** Attribute → value for every mapped field present in the request (built-ins included, e.g. `name`). */
  attributes: Record<string, unknown>;
}

/**
 * The zod schema of one request object for a trigger node: the phone field (E.164, always
 * required) plus each mapped field with its type; optional fields may be absent or null.
 * Unmapped fields are ignored.
 */
export function buildTriggerItemSchema(config: TriggerConfig) {
  const shape: Record<string, z.ZodType> = {
    [config.phoneField]: triggerPhoneSchema,
  };
  for (const field of config.fields) {
    if (field.attribute === PHONE_ATTRIBUTE || field.field === config.phoneField) continue;
    const base = fieldSchemas[field.type];
    shape[field.field] = field.required
      ? z.unknown().transform((value, ctx) => {
          if (value === undefined || value === null) {
            ctx.addIssue({ code: "custom", message: `Required (${field.type}).`, params: { code: "required" } });
            return z.NEVER;
          }
          const result = base.safeParse(value);
          if (!result.success) {
            for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, params: { code: issueCode(issue) } });
            return z.NEVER;
          }
          return result.data;
        })
      : base.nullish();
  }
  return z.object(shape).transform((input): TriggerItem => {
    const attributes: Record<string, unknown> = {};
    for (const field of config.fields) {
      if (field.attribute === PHONE_ATTRIBUTE || field.field === config.phoneField) continue;
      const value = input[field.field];
      if (value !== undefined && value !== null) attributes[field.attribute] = value;
    }
    return { phone: input[config.phoneField] as string, attributes };
  });
}

/** Shape of a trigger body before the campaign is known: one object, or an array of 1–100 objects. */
export function checkBodyShape(value: unknown): { items: Record<string, unknown>[]; isBatch: boolean } | { errors: FieldError[] } {
  if (isPlainObject(value)) return { items: [value], isBatch: false };
  if (!Array.isArray(value)) {
    return { errors: [{ path: "", code: "invalid_type", message: "Send a JSON object, or an array of 1 to 100 objects." }] };
  }
  if (value.length === 0) return { errors: [{ path: "", code: "too_small", message: "The array is empty; send 1 to 100 objects." }] };
  if (value.length > MAX_BATCH_SIZE) {
    return { errors: [{ path: "", code: "too_big", message: `The array has ${value.length} items; send at most ${MAX_BATCH_SIZE} per request.` }] };
  }
  const errors: FieldError[] = [];
  value.forEach((item, index) => {
    if (!isPlainObject(item)) errors.push({ path: `[${index}]`, code: "invalid_type", message: "Expected a JSON object." });
  });
  return errors.length > 0 ? { errors } : { items: value as Record<string, unknown>[], isBatch: true };
}

// Building a zod object schema costs far more than parsing with it, and a campaign's trigger node
// changes rarely: schemas are kept per configuration (bounded; the oldest is dropped first).
const SCHEMA_CACHE_SIZE = 500;
const schemaCache = new Map<string, ReturnType<typeof buildTriggerItemSchema>>();

export function triggerItemSchema(config: TriggerConfig): ReturnType<typeof buildTriggerItemSchema> {
  const cacheKey = JSON.stringify(config);
  let schema = schemaCache.get(cacheKey);
  if (!schema) {
    schema = buildTriggerItemSchema(config);
    if (schemaCache.size >= SCHEMA_CACHE_SIZE) schemaCache.delete(schemaCache.keys().next().value!);
    schemaCache.set(cacheKey, schema);
  }
  return schema;
}

/** Validates every item; errors carry paths like `phone` (object body) or `[3].phone` (array body). */
export function validateTriggerItems(
  config: TriggerConfig,
  items: Record<string, unknown>[],
  isBatch: boolean,
  schema: ReturnType<typeof buildTriggerItemSchema> = triggerItemSchema(config),
): { ok: true; items: TriggerItem[] } | { ok: false; errors: FieldError[] } {
  const out: TriggerItem[] = [];
  const errors: FieldError[] = [];
  items.forEach((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) {
      out.push(result.data);
      return;
    }
    for (const issue of result.error.issues) {
      errors.push({
        path: formatPath([...(isBatch ? [index] : []), ...(issue.path as (string | number)[])]),
        code: issueCode(issue),
        message: issue.message,
      });
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items: out };
}

/**
 * Strings in the body that could be the phone number, found before the campaign (and so its phone
 * field) is known; used to fetch stored contacts in the same query as the campaign.
 */
export function phoneCandidates(items: Record<string, unknown>[]): string[] {
  const found = new Set<string>();
  for (const item of items) {
    for (const value of Object.values(item)) {
      if (typeof value !== "string") continue;
      const normalized = normalizePhoneNumber(value);
      if (E164.test(normalized)) found.add(normalized);
    }
  }
  return [...found];
}

/** Whether an attribute is a contacts column rather than a key in `contacts.attributes`. */
export function isColumnAttribute(attribute: string): boolean {
  return attribute === PHONE_ATTRIBUTE || attribute === NAME_ATTRIBUTE;
}

function issueCode(issue: z.core.$ZodIssue): string {
  if (issue.code === "custom") return (issue.params as { code?: string } | undefined)?.code ?? "invalid";
  return issue.code;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
