// Campaign configuration: the one set of zod schemas used by the builder form, the session API,
// the REST API and the trigger endpoint.
import { z } from "zod";
import {
  BUILT_IN_ATTRIBUTES,
  identifierRecord,
  identifierSchema,
  IDENTIFIER_PATTERN,
  isIdentifier,
  NAME_ATTRIBUTE,
  PHONE_ATTRIBUTE,
  RESERVED_IDENTIFIERS,
} from "@/lib/contacts/identifiers";
import { canonicalFieldPath, FIELD_PATH_HELP, fieldPathSchema, isFieldPath } from "./field-path";
import { journeySchema } from "./journey";
import { MAX_FALLBACK_LENGTH, messageConfigSchema, variableMappingSchema, type MessageConfig } from "./message-config";
import { sendPolicySchema } from "./send-policy";

export { MAX_FALLBACK_LENGTH, messageConfigSchema, variableMappingSchema };
export type { MessageConfig, VariableMapping } from "./message-config";

export { BUILT_IN_ATTRIBUTES, identifierRecord, identifierSchema, IDENTIFIER_PATTERN, isIdentifier, NAME_ATTRIBUTE, PHONE_ATTRIBUTE, RESERVED_IDENTIFIERS };

export const FIELD_TYPES = ["string", "number", "boolean", "email", "date"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// The same list as db/schema.ts `campaignStatuses` (a test holds them equal); kept here so forms need no database module.
export const CAMPAIGN_STATUSES = ["draft", "active", "paused", "archived", "scheduled", "sending", "completed", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_KINDS = ["trigger", "bulk"] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

export const DEFAULT_PHONE_FIELD = "phone";
export const MAX_TRIGGER_FIELDS = 50;

export const fieldTypeSchema = z.enum(FIELD_TYPES);

export const MAX_FIELD_FALLBACKS = 5;
const FIELD_PATH_DESCRIPTION = `A path is made of ${FIELD_PATH_HELP}.`;
export const MAX_TRIGGER_EXAMPLE_BYTES = 8 * 1024;

const fallbacksSchema = z
  .array(fieldPathSchema)
  .max(MAX_FIELD_FALLBACKS, `At most ${MAX_FIELD_FALLBACKS} fallbacks.`)
  .default([]);

/**
 * How a mapped field updates a contact that already exists: `always` (the request's value
 * replaces the stored one), `when_empty` (only a missing or empty stored value is filled) or
 * `never` (the value serves this message only and is never stored). The message itself always
 * renders with the request's value.
 */
export const UPDATE_RULES = ["always", "when_empty", "never"] as const;
export type UpdateRule = (typeof UPDATE_RULES)[number];
export const updateRuleSchema = z.enum(UPDATE_RULES);

/**
 * The rule of a stored field that names none (campaigns saved before the rule existed, API callers
 * that leave it out): `when_empty` for the contact's name (a request's "Sofía" must not replace an
 * imported "Sofía López"), `always` for any other attribute, as before.
 */
export function updateRuleOf(field: { attribute: string; update?: UpdateRule | undefined }): UpdateRule {
  return field.update ?? (field.attribute === NAME_ATTRIBUTE ? "when_empty" : "always");
}

/**
 * A field the builder adds (by hand or from a captured request): the one place its defaults live.
 * Required, unless the captured example had no value for it (missing, null or empty); fills a
 * contact's attribute only when it is empty.
 */
export function newTriggerField(input: { field?: string; attribute?: string; type?: FieldType; exampleValue?: unknown } = {}): TriggerField {
  const absent = "exampleValue" in input && (input.exampleValue === undefined || input.exampleValue === null || (typeof input.exampleValue === "string" && input.exampleValue.trim() === ""));
  return { field: input.field ?? "", fallbacks: [], attribute: input.attribute ?? "", type: input.type ?? "string", required: !absent, update: "when_empty" };
}

export const triggerFieldSchema = z.object({
  field: fieldPathSchema,
  fallbacks: fallbacksSchema.meta({
    description: "Paths read in order when `field` is missing, null or an empty string; the first with a value wins (e.g. `shipping_address.phone`, then `billing_address.phone`).",
  }),
  attribute: identifierSchema,
  type: fieldTypeSchema,
  required: z.boolean(),
  update: updateRuleSchema.optional().meta({
    description:
      "How the value updates a contact that already exists: `always` replaces the stored value, `when_empty` fills only a missing or empty one, `never` uses the value for this message only (it is not stored, not even on a new contact). Left out: `when_empty` for `name`, `always` for other attributes. A skipped request (opted out, frequency cap) changes nothing on the contact.",
  }),
});

const exampleSchema = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .nullable()
  .default(null)
  .superRefine((value, ctx) => {
    if (value !== null && new TextEncoder().encode(JSON.stringify(value)).length > MAX_TRIGGER_EXAMPLE_BYTES) {
      ctx.addIssue({ code: "custom", message: `The example body is larger than ${MAX_TRIGGER_EXAMPLE_BYTES / 1024} KiB; trim it.`, params: { code: "too_big" } });
    }
  })
  .meta({
    description: `A request body shown as the example (e.g. one captured from a test request), a JSON object or array of at most ${MAX_TRIGGER_EXAMPLE_BYTES / 1024} KiB; null: an example is built from the fields.`,
  });

export const triggerConfigSchema = z
  .object({
    phoneField: fieldPathSchema.meta({
      description: `Path of the phone number in the body: E.164, or a national number read in the country at \`countryField\`. ${FIELD_PATH_DESCRIPTION}`,
      example: "customer.phone",
    }),
    phoneFallbacks: fallbacksSchema.meta({
      description: "Paths read in order when `phoneField` is missing, null or an empty string (e.g. `shipping_address.phone`).",
    }),
    countryField: fieldPathSchema
      .nullable()
      .default(null)
      .meta({
        description:
          "Path of an ISO 3166 alpha-2 country code in the body (e.g. `shipping_address.country_code`): a phone number without + is read as a national number of that country. Null: such numbers are refused.",
      }),
    fields: z.array(triggerFieldSchema).max(MAX_TRIGGER_FIELDS, `At most ${MAX_TRIGGER_FIELDS} fields.`),
    example: exampleSchema,
  })
  .superRefine((config, ctx) => {
    const phone = canonicalFieldPath(config.phoneField);
    fallbackIssues(config.phoneField, config.phoneFallbacks, ["phoneFallbacks"], ctx);
    const seenFields = new Map<string, number>();
    const seenAttributes = new Map<string, number>();
    config.fields.forEach((row, index) => {
      const field = canonicalFieldPath(row.field);
      if (field === phone) {
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "field"],
          message: `"${row.field}" is already the phone field.`,
        });
      } else if (seenFields.has(field)) {
        ctx.addIssue({ code: "custom", path: ["fields", index, "field"], message: `The field "${row.field}" is listed twice.` });
      }
      seenFields.set(field, index);
      fallbackIssues(row.field, row.fallbacks, ["fields", index, "fallbacks"], ctx);
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

/** A fallback that repeats the field itself or an earlier fallback would never be read. */
function fallbackIssues(primary: string, fallbacks: string[], at: (string | number)[], ctx: z.RefinementCtx) {
  const seen = new Set([canonicalFieldPath(primary)]);
  fallbacks.forEach((fallback, index) => {
    const path = canonicalFieldPath(fallback);
    if (seen.has(path)) ctx.addIssue({ code: "custom", path: [...at, index], message: `"${fallback}" is already read before this fallback.` });
    seen.add(path);
  });
}
export type TriggerConfig = z.output<typeof triggerConfigSchema>;
/** What callers may send (fallbacks, country field and example may be left out). */
export type TriggerConfigInput = z.input<typeof triggerConfigSchema>;
export type TriggerField = TriggerConfig["fields"][number];


// ── Bulk campaigns: who receives it and how fast ─────────────────────────────────────────

const idList = (prefix: string, max: number, what: string) =>
  z
    .array(z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`), `Not a ${what} id.`))
    .max(max, `At most ${max} ${what}s.`);

export const MAX_AUDIENCE_LISTS = 50;
export const MAX_AUDIENCE_SEGMENTS = 50;
/** Contacts named one by one in a request body (a retarget's audience is written by the server and may be larger). */
export const MAX_AUDIENCE_CONTACT_IDS = 1_000;
export const MAX_EXCLUDED_CONTACT_IDS = 1_000;
export const MAX_SEND_RATE_PER_SECOND = 1_000;

/**
 * Who a bulk campaign goes to: every contact in any of the lists or segments (and `contactIds`),
 * once, minus `excludeContactIds`; opted-out contacts never.
 */
export const bulkAudienceSchema = z.object({
  listIds: idList("lst", MAX_AUDIENCE_LISTS, "list").default([]),
  segmentIds: idList("seg", MAX_AUDIENCE_SEGMENTS, "segment").default([]),
  contactIds: idList("ctc", MAX_AUDIENCE_CONTACT_IDS, "contact")
    .optional()
    .meta({ description: "Contacts named one by one (a retargeting campaign's audience is exactly such a set)." }),
  excludeContactIds: idList("ctc", MAX_EXCLUDED_CONTACT_IDS, "contact")
    .optional()
    .meta({ description: "Contacts left out although the lists or segments select them (e.g. chosen in the preview)." }),
  excludeContactsWithEmptyVariables: z
    .boolean()
    .optional()
    .meta({ description: "Leave out contacts for whom a template variable would come out empty (no attribute value and no fallback): the preview steps over them. Either way they get a `skipped` message with error `variables_missing` at launch (its reason says they were left out), counted as skipped." }),
  includeUnknownConsent: z
    .boolean()
    .optional()
    .meta({
      description:
        "With a MARKETING template: also send to contacts whose consent is `unknown` (otherwise only `subscribed` contacts get it; the others are stored `skipped` with error `no_consent`). Unsubscribed contacts never get a campaign message. Recorded in the audit log at launch.",
    }),
});
export type BulkAudience = z.output<typeof bulkAudienceSchema>;

export const sendRateSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_SEND_RATE_PER_SECOND)
  .nullable()
  .meta({ description: "Bulk campaigns: messages per second, at or below the sender's throughput; null sends at the sender's throughput." });

export const campaignNameSchema = z
  .string()
  .trim()
  .min(1, "Give the campaign a name.")
  .max(100, "At most 100 characters.");

const journeyMember = journeySchema
  .nullable()
  .optional()
  .meta({
    description:
      "Trigger campaigns: the steps after the trigger (send, wait, wait for an event, branch, update the contact, end). Null: the campaign sends its one message (`templateId`, `messageConfig`); with a journey those are not used, every message is a send step's.",
  });

export const createCampaignSchema = z
  .object({
    name: campaignNameSchema,
    kind: z.enum(CAMPAIGN_KINDS).default("trigger"),
    audience: bulkAudienceSchema.optional().meta({ description: "Bulk campaigns: who receives it." }),
    templateId: z.string().min(1).max(100).nullable().optional().meta({ description: "Bulk campaigns: the template to send (trigger campaigns pick it in the builder)." }),
    messageConfig: messageConfigSchema.optional().meta({ description: "Bulk campaigns: template variable → contact attribute, with fallbacks." }),
    sendRatePerSecond: sendRateSchema.optional(),
    senderId: z.string().min(1).max(64).optional().meta({ description: "The sender (WhatsApp number or sandbox) the campaign sends through; left out: the workspace's default sender." }),
    journey: journeyMember,
  })
  .superRefine((input, ctx) => {
    if (input.kind === "bulk") {
      if (input.journey !== undefined && input.journey !== null) ctx.addIssue({ code: "custom", path: ["journey"], message: "Only trigger campaigns have a journey." });
      return;
    }
    for (const member of ["audience", "templateId", "messageConfig", "sendRatePerSecond"] as const) {
      if (input[member] !== undefined) ctx.addIssue({ code: "custom", path: [member], message: "Only bulk campaigns take this when they are created." });
    }
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
  /** Quiet hours and a frequency cap. Absent leaves it as stored. */
  sendPolicy: sendPolicySchema.optional(),
  /** Trigger campaigns: the steps after the trigger (null: the one-message campaign). Absent leaves it as stored. */
  journey: journeyMember,
});
export type CampaignEditorInput = z.input<typeof campaignEditorSchema>;
export type CampaignEditorValues = z.output<typeof campaignEditorSchema>;

/** The builder form's schema with every member optional, plus the limit and an expected version. */
export const updateCampaignSchema = campaignEditorSchema.partial().extend({
  rateLimitPerMinute: z.number().int().min(1).max(100_000).optional(),
  /** Bulk campaigns only. */
  audience: bulkAudienceSchema.optional().meta({ description: "Bulk campaigns: who receives it." }),
  sendRatePerSecond: sendRateSchema.optional(),
  /** The sender; new messages go out through it, queued ones keep theirs. */
  senderId: z.string().min(1).max(64).optional().meta({ description: "The sender the campaign sends through from now on (messages already queued keep theirs)." }),
  /** Optimistic concurrency: when given, the update only applies to this version. */
  version: z.number().int().min(1).optional(),
});
export type UpdateCampaignInput = z.input<typeof updateCampaignSchema>;

/** Body of deploy / pause / resume / archive / unarchive / publish / discard: an optional expected version. */
export const lifecycleActionSchema = z.object({ version: z.number().int().min(1).optional() }).default({});

export function defaultTriggerConfig(): TriggerConfig {
  return { phoneField: DEFAULT_PHONE_FIELD, phoneFallbacks: [], countryField: null, fields: [], example: null };
}

export function defaultMessageConfig(): MessageConfig {
  return { variables: [] };
}

/**
 * Reads a stored trigger configuration leniently (rows are written through the schema, but a
 * hand-edited or empty jsonb must not crash a page).
 */
export function parseStoredTriggerConfig(value: unknown): TriggerConfig {
  const config = readStoredTriggerConfig(value);
  // Every field names the update rule in effect, so a field saved before rules existed and the same
  // field saved again with its rule read the same (no phantom change between a live campaign and its draft).
  return { ...config, fields: config.fields.map((field) => ({ ...field, update: updateRuleOf(field) })) };
}

function readStoredTriggerConfig(value: unknown): TriggerConfig {
  const parsed = triggerConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const raw = (value ?? {}) as Record<string, unknown>;
  const path = (candidate: unknown): candidate is string => typeof candidate === "string" && isFieldPath(candidate);
  const example = exampleSchema.safeParse(raw.example);
  return {
    phoneField: path(raw.phoneField) ? raw.phoneField : DEFAULT_PHONE_FIELD,
    phoneFallbacks: Array.isArray(raw.phoneFallbacks) ? raw.phoneFallbacks.filter(path).slice(0, MAX_FIELD_FALLBACKS) : [],
    countryField: path(raw.countryField) ? raw.countryField : null,
    fields: Array.isArray(raw.fields)
      ? raw.fields.flatMap((row) => {
          const one = triggerFieldSchema.safeParse(row);
          return one.success ? [one.data] : [];
        })
      : [],
    example: example.success ? example.data : null,
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
