// Validation of trigger request bodies, built from the campaign's trigger node.
import { z } from "zod";
import { MAX_STRING_FIELD_LENGTH } from "@/lib/contacts/identifiers";
import { isSupportedCountry } from "libphonenumber-js/max";
import { e164PhoneSchema, E164, isE164PhoneNumber, parsePhone, type CountryCode } from "@/lib/contacts/phone";
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE, type FieldType, type TriggerConfig } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/problem";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { MAX_FIELD_PATH_DEPTH, parseFieldPath, readSteps, type PathStep } from "./field-path";

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

/**
 * The phone field: a string, normalised to E.164 when written with a `+` and separators. Without
 * a `+`, only with `country` (read from the body's country field) is it read as a national number.
 */
function checkPhone(value: unknown, country: CountryCode | null, countryField: string | null): { ok: true; phone: string } | { ok: false; code: string; message: string } {
  if (typeof value === "number" || (typeof value === "string" && NATIONAL_LOOKING.test(value.trim()) && /\d/.test(value))) {
    const text = typeof value === "number" ? numberAsText(value) : value;
    if (country && text !== null) {
      const parsed = parsePhone(text, { defaultCountry: country });
      if (parsed.ok) return { ok: true, phone: parsed.phone };
      return { ok: false, code: "invalid_phone", message: `Not a valid phone number in ${country}: ${parsed.reason}.` };
    }
    const hint = countryField && !country ? ` The country field ${countryField} holds no 2-letter ISO country code here.` : "";
    return { ok: false, code: "invalid_phone", message: NO_COUNTRY_CODE_MESSAGE + hint };
  }
  const result = e164PhoneSchema.safeParse(typeof value === "string" ? normalizePhoneNumber(value) : value);
  if (!result.success) return { ok: false, code: "invalid_phone", message: result.error.issues[0]?.message ?? "Not a valid phone number." };
  return { ok: true, phone: result.data };
}

/** An ISO 3166 alpha-2 code the phone library knows (`us` and `US` alike), or null. */
export function countryCode(value: unknown): CountryCode | null {
  if (typeof value !== "string" || !/^[A-Za-z]{2}$/.test(value.trim())) return null;
  const code = value.trim().toUpperCase();
  return isSupportedCountry(code) ? (code as CountryCode) : null;
}

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

interface CompiledPath {
  path: string;
  steps: PathStep[];
}

function compilePaths(paths: string[]): CompiledPath[] {
  return paths.flatMap((path) => {
    const parsed = parseFieldPath(path);
    return parsed.ok ? [{ path, steps: parsed.steps }] : [];
  });
}

/**
 * The first of the paths whose value is present: not missing, not null and not an empty string (a
 * lone empty string still counts when nothing better is found, as before fallbacks existed).
 */
function firstPresent(item: unknown, paths: CompiledPath[]): { path: string; value: unknown } | null {
  let empty: { path: string; value: unknown } | null = null;
  for (const candidate of paths) {
    const value = readSteps(item, candidate.steps);
    if (value === undefined || value === null) continue;
    if (value === "") {
      empty ??= { path: candidate.path, value };
      continue;
    }
    return { path: candidate.path, value };
  }
  return empty;
}

function missingMessage(what: string, paths: CompiledPath[]): string {
  return paths.length > 1 ? `${what} Also looked for ${paths.slice(1).map((p) => p.path).join(", ")}; none had a value.` : what;
}

/**
 * The zod schema of one request object for a trigger node: the phone (E.164, always required) read
 * from the phone path or its fallbacks, plus each mapped field with its type; optional fields may be
 * absent or null. Unmapped fields are ignored. Issue paths are the full field path that was read
 * (`customer.phone`), as one segment.
 */
export function buildTriggerItemSchema(config: TriggerConfig) {
  const phonePaths = compilePaths([config.phoneField, ...(config.phoneFallbacks ?? [])]);
  const countryPath = config.countryField ? compilePaths([config.countryField])[0] ?? null : null;
  const fields = config.fields
    .filter((field) => field.attribute !== PHONE_ATTRIBUTE && field.field !== config.phoneField)
    .map((field) => ({ field, paths: compilePaths([field.field, ...(field.fallbacks ?? [])]), schema: fieldSchemas[field.type] }));

  return z.unknown().transform((item, ctx): TriggerItem => {
    const attributes: Record<string, unknown> = {};
    let phone = "";
    const phoneFound = firstPresent(item, phonePaths);
    if (!phoneFound) {
      ctx.addIssue({
        code: "custom",
        path: [config.phoneField],
        message: missingMessage("Required: the phone number in E.164 format, such as +14155552671.", phonePaths),
        params: { code: "required" },
      });
    } else {
      const country = countryPath ? countryCode(readSteps(item, countryPath.steps)) : null;
      const checked = checkPhone(phoneFound.value, country, config.countryField);
      if (checked.ok) phone = checked.phone;
      else ctx.addIssue({ code: "custom", path: [phoneFound.path], message: checked.message, params: { code: checked.code } });
    }
    for (const { field, paths, schema } of fields) {
      const found = firstPresent(item, paths);
      if (!found) {
        if (field.required) {
          ctx.addIssue({ code: "custom", path: [field.field], message: missingMessage(`Required (${field.type}).`, paths), params: { code: "required" } });
        }
        continue;
      }
      const result = schema.safeParse(found.value);
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ code: "custom", path: [found.path], message: issue.message, params: { code: issueCode(issue) } });
        continue;
      }
      attributes[field.attribute] = result.data;
    }
    return { phone, attributes };
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
  // The example body changes nothing in validation and may be kilobytes long.
  const cacheKey = JSON.stringify({ ...config, example: null });
  let schema = schemaCache.get(cacheKey);
  if (!schema) {
    schema = buildTriggerItemSchema(config);
    if (schemaCache.size >= SCHEMA_CACHE_SIZE) schemaCache.delete(schemaCache.keys().next().value!);
    schemaCache.set(cacheKey, schema);
  }
  return schema;
}

/** Validates every item; errors carry paths like `customer.phone` (object body) or `[3].customer.phone` (array body). */
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

// Bounds of the search for phone numbers in one item: the body is at most a request's size, but
// its shape is the caller's choice.
// Every value a field path can reach (10 steps) is looked at.
const CANDIDATE_MAX_DEPTH = MAX_FIELD_PATH_DEPTH - 1;
const CANDIDATE_MAX_NODES = 2_000;
const CANDIDATE_MAX_PER_ITEM = 16;
const CANDIDATE_MAX_COUNTRIES = 4;
const CANDIDATE_MAX_NATIONAL = 8;
const COUNTRY_KEY = /country/i;
const PHONE_KEY = /phone|mobile|whatsapp|msisdn|cell|^tel/i;

/**
 * Numbers in the body that could be the phone, found before the campaign (and so its phone path)
 * is known; used to fetch stored contacts (and their opt-out) in the same query as the campaign.
 * Every string in E.164 (with separators) at any depth, shallow ones first; and with a 2-letter
 * country code somewhere in the same item, national-looking numbers read in that country.
 */
export function phoneCandidates(items: Record<string, unknown>[]): string[] {
  const found = new Set<string>();
  for (const item of items) {
    const international: string[] = [];
    const national: { text: string; named: boolean }[] = [];
    const countries: { code: CountryCode; named: boolean }[] = [];
    // Breadth first, so that `phone` and `customer.phone` come before anything deep in line items.
    let level: unknown[] = [item];
    let nodes = 0;
    for (let depth = 0; depth <= CANDIDATE_MAX_DEPTH && level.length > 0 && nodes < CANDIDATE_MAX_NODES; depth++) {
      const next: unknown[] = [];
      for (const node of level) {
        const entries: [string, unknown][] = Array.isArray(node) ? node.map((value) => ["", value]) : Object.entries(node as Record<string, unknown>);
        for (const [key, value] of entries) {
          if (++nodes > CANDIDATE_MAX_NODES) break;
          if (typeof value === "object" && value !== null) next.push(value);
          else if (typeof value === "string") {
            const normalized = normalizePhoneNumber(value);
            if (E164.test(normalized)) international.push(normalized);
            else if (NATIONAL_LOOKING.test(value.trim()) && /\d{5}/.test(value.replace(/\D/g, ""))) national.push({ text: value, named: PHONE_KEY.test(key) });
            else {
              const code = countryCode(value);
              if (code && !countries.some((c) => c.code === code)) countries.push({ code, named: COUNTRY_KEY.test(key) });
            }
          } else if (typeof value === "number" && Number.isSafeInteger(value) && value >= 10_000 && PHONE_KEY.test(key)) {
            national.push({ text: String(value), named: true });
          }
        }
      }
      level = next;
    }
    let added = 0;
    const add = (phone: string) => {
      if (added < CANDIDATE_MAX_PER_ITEM && !found.has(phone)) {
        found.add(phone);
        added++;
      }
    };
    international.forEach(add);
    const usable = [...countries.filter((c) => c.named), ...countries.filter((c) => !c.named)].slice(0, CANDIDATE_MAX_COUNTRIES);
    if (usable.length === 0) continue;
    const likely = [...national.filter((n) => n.named), ...national.filter((n) => !n.named)].slice(0, CANDIDATE_MAX_NATIONAL);
    for (const { text } of likely) {
      for (const { code } of usable) {
        const parsed = parsePhone(text, { defaultCountry: code });
        if (parsed.ok) add(parsed.phone);
      }
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
