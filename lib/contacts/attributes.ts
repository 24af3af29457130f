// Attribute definitions (`contact_attributes`: key + type) and the typed value rules shared by the
// REST API, the contact page and the CSV import.
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { attributeTypes, contactAttributes, type AttributeType } from "@/db/schema";
import { BUILT_IN_ATTRIBUTES, identifierSchema, isIsoDate, MAX_STRING_FIELD_LENGTH } from "./identifiers";
import { conflict, type FieldError } from "@/lib/http/errors";
import { isStorableText } from "@/lib/http/storable-text";

export { attributeTypes, isIsoDate, type AttributeType };

export const attributeKeySchema = identifierSchema.refine((key) => !(BUILT_IN_ATTRIBUTES as readonly string[]).includes(key), {
  message: "`name` and `phoneNumber` are built in; pick another key.",
  params: { code: "built_in_attribute" },
});

export const defineAttributeSchema = z.object({
  key: attributeKeySchema,
  type: z.enum(attributeTypes),
});
export type DefineAttributeInput = z.input<typeof defineAttributeSchema>;

export interface AttributeDefinition {
  key: string;
  type: AttributeType;
  createdAt: string;
}

export type CoercedValue = string | number | boolean;
export type Coercion = { ok: true; value: CoercedValue } | { ok: false; reason: string };

/** Plain decimals only: `4.41E+11` is a spreadsheet's rounding of a longer number, not data. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const TRUE_WORDS = new Set(["true", "yes", "y", "1"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0"]);

const TYPE_MESSAGES: Record<AttributeType, string> = {
  string: "Expected text.",
  number: "Expected a number.",
  boolean: "Expected true or false.",
  date: "Expected a date as YYYY-MM-DD.",
};

function checkText(value: string): Coercion {
  if (value.length > MAX_STRING_FIELD_LENGTH) return { ok: false, reason: `At most ${MAX_STRING_FIELD_LENGTH} characters.` };
  if (!isStorableText(value)) return { ok: false, reason: "Contains characters that cannot be stored." };
  return { ok: true, value };
}

/** A JSON value (API bodies, the contact page) checked against the attribute's declared type. */
export function coerceAttributeValue(type: AttributeType, value: unknown): Coercion {
  switch (type) {
    case "string":
      return typeof value === "string" ? checkText(value) : { ok: false, reason: TYPE_MESSAGES.string };
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: TYPE_MESSAGES.number };
    case "boolean":
      return typeof value === "boolean" ? { ok: true, value } : { ok: false, reason: TYPE_MESSAGES.boolean };
    case "date":
      return typeof value === "string" && isIsoDate(value) ? { ok: true, value } : { ok: false, reason: TYPE_MESSAGES.date };
  }
}

/**
 * A text cell (CSV import) read as the attribute's type. The caller decides what an empty cell
 * means; here it is not a value of any type but `string`.
 */
export function parseAttributeText(type: AttributeType, raw: string): Coercion {
  const text = raw.trim();
  switch (type) {
    case "string":
      return checkText(text);
    case "number": {
      if (!DECIMAL.test(text)) return { ok: false, reason: `Not a number: "${text.slice(0, 40)}".` };
      const value = Number(text);
      return Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: `Not a number: "${text.slice(0, 40)}".` };
    }
    case "boolean": {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, reason: `Not true or false: "${text.slice(0, 40)}".` };
    }
    case "date":
      return isIsoDate(text) ? { ok: true, value: text } : { ok: false, reason: `Not a date as YYYY-MM-DD: "${text.slice(0, 40)}".` };
  }
}

function toDefinition(row: typeof contactAttributes.$inferSelect): AttributeDefinition {
  return { key: row.key, type: row.type, createdAt: row.createdAt.toISOString() };
}

export async function listAttributes(db: Executor, workspaceId: string): Promise<{ data: AttributeDefinition[]; nextCursor: null }> {
  const rows = await db.select().from(contactAttributes).where(eq(contactAttributes.workspaceId, workspaceId)).orderBy(asc(contactAttributes.key));
  return { data: rows.map(toDefinition), nextCursor: null };
}

/** The declared types of these keys (keys without a definition are left out). */
export async function attributeTypesOf(db: Executor, workspaceId: string, keys: string[]): Promise<Map<string, AttributeType>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: contactAttributes.key, type: contactAttributes.type })
    .from(contactAttributes)
    .where(and(eq(contactAttributes.workspaceId, workspaceId), inArray(contactAttributes.key, keys)));
  return new Map(rows.map((row) => [row.key, row.type]));
}

/**
 * Defines an attribute. Defining it again with the same type changes nothing (`created` false);
 * with another type it is refused, since the stored values follow the first one.
 */
export async function defineAttribute(
  db: Executor,
  workspaceId: string,
  input: z.output<typeof defineAttributeSchema>,
): Promise<{ attribute: AttributeDefinition; created: boolean }> {
  const [inserted] = await db
    .insert(contactAttributes)
    .values({ workspaceId, key: input.key, type: input.type })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { attribute: toDefinition(inserted), created: true };
  const [existing] = await db
    .select()
    .from(contactAttributes)
    .where(and(eq(contactAttributes.workspaceId, workspaceId), eq(contactAttributes.key, input.key)));
  if (!existing) throw new Error("The attribute definition vanished between insert and read.");
  if (existing.type !== input.type) {
    throw conflict(`The attribute "${input.key}" is already defined as ${existing.type}.`, "attribute_type_conflict");
  }
  return { attribute: toDefinition(existing), created: false };
}

/**
 * Field errors for attribute values that do not match their declared types (`null` values, which
 * remove a key, are never checked). `prefix` is the body path of the attributes object.
 */
export async function typedAttributeErrors(
  db: Executor,
  workspaceId: string,
  attributes: Record<string, unknown>,
  prefix = "attributes",
): Promise<FieldError[]> {
  const keys = Object.keys(attributes).filter((key) => attributes[key] !== null);
  const types = await attributeTypesOf(db, workspaceId, keys);
  const errors: FieldError[] = [];
  for (const key of keys) {
    const type = types.get(key);
    if (!type) continue;
    const result = coerceAttributeValue(type, attributes[key]);
    if (!result.ok) errors.push({ path: `${prefix}.${key}`, code: "invalid_type", message: `${key} is a ${type} attribute. ${result.reason}` });
  }
  return errors;
}
