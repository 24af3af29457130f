// Campaign configuration: the one set of zod schemas used by the builder form, the session API,
// the REST API and the trigger endpoint.
import { z } from "zod";

export const FIELD_TYPES = ["string", "number", "boolean", "email", "date"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CAMPAIGN_STATUSES = ["draft", "active", "paused", "archived"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_KINDS = ["trigger", "bulk"] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/** JSON-safe identifier used for request field names and contact attribute names. */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const IDENTIFIER_MESSAGE = "Use letters, digits and underscores only, starting with a letter or underscore (at most 64 characters).";

/** Contact attributes stored in their own columns; every other attribute lives in `contacts.attributes`. */
export const PHONE_ATTRIBUTE = "phoneNumber";
export const NAME_ATTRIBUTE = "name";
export const BUILT_IN_ATTRIBUTES = [PHONE_ATTRIBUTE, NAME_ATTRIBUTE] as const;

export const DEFAULT_PHONE_FIELD = "phone";
export const MAX_TRIGGER_FIELDS = 50;
export const MAX_FALLBACK_LENGTH = 1024;

export const identifierSchema = z.string().trim().regex(IDENTIFIER_PATTERN, IDENTIFIER_MESSAGE);

export const fieldTypeSchema = z.enum(FIELD_TYPES);

export const triggerFieldSchema = z.object({
  field: identifierSchema,
  attribute: identifierSchema,
  type: fieldTypeSchema,
  required: z.boolean(),
});

export const triggerConfigSchema = z
  .object({
    phoneField: identifierSchema,
    fields: z.array(triggerFieldSchema).max(MAX_TRIGGER_FIELDS, `At most ${MAX_TRIGGER_FIELDS} fields.`),
  })
  .superRefine((config, ctx) => {
    const seenFields = new Map<string, number>();
    const seenAttributes = new Map<string, number>();
    config.fields.forEach((row, index) => {
      if (row.field === config.phoneField) {
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "field"],
          message: `"${row.field}" is already the phone field.`,
        });
      } else if (seenFields.has(row.field)) {
        ctx.addIssue({ code: "custom", path: ["fields", index, "field"], message: `The field "${row.field}" is listed twice.` });
      }
      seenFields.set(row.field, index);
      if (row.attribute === PHONE_ATTRIBUTE) {
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "attribute"],
          message: "The phone number comes from the phone field; pick another attribute.",
        });
      } else if (seenAttributes.has(row.attribute)) {
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "attribute"],
          message: `Two fields write to the attribute "${row.attribute}".`,
        });
      }
      seenAttributes.set(row.attribute, index);
    });
  });
export type TriggerConfig = z.output<typeof triggerConfigSchema>;
export type TriggerField = TriggerConfig["fields"][number];

const fallbackSchema = z
  .string()
  .max(MAX_FALLBACK_LENGTH, `At most ${MAX_FALLBACK_LENGTH} characters.`)
  .nullable()
  .transform((value) => (value === null || value.trim() === "" ? null : value));

export const variableMappingSchema = z.object({
  key: z.string().min(1).max(200),
  attribute: identifierSchema.nullable(),
  fallback: fallbackSchema,
});

export const messageConfigSchema = z
  .object({
    variables: z.array(variableMappingSchema).max(100),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.variables.forEach((variable, index) => {
      if (seen.has(variable.key)) {
        ctx.addIssue({ code: "custom", path: ["variables", index, "key"], message: `The variable ${variable.key} is mapped twice.` });
      }
      seen.add(variable.key);
    });
  });
export type MessageConfig = z.output<typeof messageConfigSchema>;
export type VariableMapping = MessageConfig["variables"][number];

export const campaignNameSchema = z
  .string()
  .trim()
  .min(1, "Give the campaign a name.")
  .max(100, "At most 100 characters.");

export const createCampaignSchema = z.object({
  name: campaignNameSchema,
  kind: z.enum(CAMPAIGN_KINDS).default("trigger"),
});
export type CreateCampaignInput = z.input<typeof createCampaignSchema>;

/** What the builder saves (and what `PATCH /campaigns/{id}` accepts; every member optional there). */
export const campaignEditorSchema = z.object({
  name: campaignNameSchema,
  triggerConfig: triggerConfigSchema,
  templateId: z.string().min(1).max(100).nullable(),
  messageConfig: messageConfigSchema,
  /** Trigger campaigns: skip (and record as `skipped`) contacts who opted out. Absent leaves it as stored. */
  respectOptOut: z
    .boolean()
    .optional()
    .meta({ description: "Trigger campaigns: contacts who opted out get a `skipped` message (error `opted_out`) instead of a send. New campaigns: true." }),
});
export type CampaignEditorInput = z.input<typeof campaignEditorSchema>;
export type CampaignEditorValues = z.output<typeof campaignEditorSchema>;

/** The builder form's schema with every member optional, plus the limit and an expected version. */
export const updateCampaignSchema = campaignEditorSchema.partial().extend({
  rateLimitPerMinute: z.number().int().min(1).max(100_000).optional(),
  /** Optimistic concurrency: when given, the update only applies to this version. */
  version: z.number().int().min(1).optional(),
});
export type UpdateCampaignInput = z.input<typeof updateCampaignSchema>;

/** Body of deploy / pause / resume / archive: an optional expected version. */
export const lifecycleActionSchema = z.object({ version: z.number().int().min(1).optional() }).default({});

export function defaultTriggerConfig(): TriggerConfig {
  return { phoneField: DEFAULT_PHONE_FIELD, fields: [] };
}

export function defaultMessageConfig(): MessageConfig {
  return { variables: [] };
}

/**
 * Reads a stored trigger configuration leniently (rows are written through the schema, but a
 * hand-edited or empty jsonb must not crash a page).
 */
export function parseStoredTriggerConfig(value: unknown): TriggerConfig {
  const parsed = triggerConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const raw = (value ?? {}) as Partial<TriggerConfig>;
  return {
    phoneField: typeof raw.phoneField === "string" && IDENTIFIER_PATTERN.test(raw.phoneField) ? raw.phoneField : DEFAULT_PHONE_FIELD,
    fields: Array.isArray(raw.fields) ? raw.fields.filter((row) => triggerFieldSchema.safeParse(row).success) : [],
  };
}

export function parseStoredMessageConfig(value: unknown): MessageConfig {
  const parsed = messageConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const raw = (value ?? {}) as Partial<MessageConfig>;
  const variables = Array.isArray(raw.variables)
    ? raw.variables.flatMap((row) => {
        const one = variableMappingSchema.safeParse(row);
        return one.success ? [one.data] : [];
      })
    : [];
  return { variables };
}

/** Every contact attribute the trigger node writes (the phone first). */
export function mappedAttributes(config: TriggerConfig): string[] {
  return [PHONE_ATTRIBUTE, ...config.fields.map((row) => row.attribute)];
}
