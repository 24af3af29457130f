// Bulk campaigns: the zod schemas of every request body and response, shared by the routes, the
// OpenAPI document and the web app's bulk builder.
import { z } from "zod";
import { bulkAudienceSchema, messageConfigSchema } from "@/lib/campaigns/schemas";
import { MESSAGING_TIERS } from "@/lib/senders/tier";

export {
  bulkAudienceSchema,
  sendRateSchema,
  MAX_AUDIENCE_CONTACT_IDS,
  MAX_AUDIENCE_LISTS,
  MAX_AUDIENCE_SEGMENTS,
  MAX_EXCLUDED_CONTACT_IDS,
  MAX_SEND_RATE_PER_SECOND,
  type BulkAudience,
} from "@/lib/campaigns/schemas";

export const MAX_TEST_PHONES = 10;

/** The audience's lists and segments, for the live count. */
export const audienceCountRequestSchema = bulkAudienceSchema.pick({ listIds: true, segmentIds: true, contactIds: true, excludeContactIds: true });
export const audienceCountResponseSchema = z.object({
  count: z.number().int().meta({ description: "Contacts the audience reaches now (opted-out contacts left out).", example: 1250 }),
  optedOutExcluded: z.number().int().meta({ description: "Contacts the lists and segments select who opted out, and so are left out.", example: 17 }),
  consent: z
    .object({ subscribed: z.number().int(), unknown: z.number().int() })
    .meta({ description: "Of `count`, by consent: a MARKETING template reaches only `subscribed` contacts unless the campaign includes unknown consent." }),
});

/** What a bulk campaign shows besides the shared campaign members (null for trigger campaigns). */
export const bulkSettingsSchema = z
  .object({
    audience: bulkAudienceSchema,
    sendRatePerSecond: z.number().int().nullable(),
    scheduledAt: z.string().nullable().meta({ description: "When a scheduled campaign starts (UTC)." }),
    timeZone: z.string().nullable().meta({ description: "The IANA zone the schedule was chosen in.", example: "Europe/Lisbon" }),
    allowTierWait: z.boolean().meta({ description: "An audience above the daily messaging limit sends what fits and holds the rest until the rolling 24 h frees up." }),
    launchedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    scheduleMissed: z
      .boolean()
      .meta({ description: "A draft whose schedule was missed by more than 24 h (or whose checks failed at the scheduled time): it was not started; schedule it again or launch it." }),
  })
  .meta({ description: "Bulk campaigns only (null for trigger campaigns)." });
export type BulkSettings = z.output<typeof bulkSettingsSchema>;

export const previewRequestSchema = z.object({
  audience: bulkAudienceSchema,
  templateId: z.string().min(1).max(100),
  messageConfig: messageConfigSchema,
  index: z.number().int().min(0).default(0).meta({ description: "Which contact of the audience (0-based, in a stable order)." }),
});
export type PreviewRequest = z.input<typeof previewRequestSchema>;

const templatePreviewSchema = z.object({
  header: z
    .union([
      z.object({ kind: z.literal("text"), text: z.string() }),
      z.object({ kind: z.literal("media"), format: z.enum(["image", "video", "document"]), link: z.string().nullable() }),
    ])
    .nullable(),
  body: z.string(),
  footer: z.string().nullable(),
  buttons: z.array(z.object({ type: z.string(), text: z.string(), url: z.string().optional() })),
});

export const previewResponseSchema = z.object({
  total: z.number().int().meta({ description: "Contacts in the audience (after exclusions)." }),
  index: z.number().int(),
  contact: z.object({ id: z.string(), phone: z.string(), name: z.string().nullable() }).nullable().meta({ description: "Null when the audience is empty or `index` is past its end." }),
  rendered: z
    .object({ text: z.string().meta({ description: "What the recipient reads; an empty variable keeps its `{{…}}` placeholder." }), preview: templatePreviewSchema })
    .nullable(),
  emptyVariables: z.array(z.string()).meta({ description: "Variables of this contact with neither an attribute value nor a fallback.", example: [] }),
  contactsWithEmptyVariables: z.number().int().meta({ description: "Contacts of the audience with at least one empty variable." }),
  contactsWithEmptyVariable: z
    .record(z.string(), z.number().int())
    .meta({ description: "Per variable key without a fallback: contacts of the audience with no value for it (the builder warns about a variable only when its count is above 0)." }),
});

export const testSendRequestSchema = z.object({
  phones: z
    .array(z.string().min(1).max(32))
    .min(1, "Give at least one phone number.")
    .max(MAX_TEST_PHONES, `At most ${MAX_TEST_PHONES} phone numbers.`)
    .meta({
      description: "Phone numbers to send the test to: E.164, or as people write them (`+34 612 34 56 78`); without a country code when `country` is given.",
      example: ["+14155552671"],
    }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, "Use a two-letter country code such as ES or US.")
    .optional()
    .meta({ description: "ISO 3166 country of the numbers written without a country code.", example: "ES" }),
  request: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({
      description:
        "Trigger campaigns: an example request body, as your system would send it. It is validated and rendered like a trigger request, with its phone field set to each test phone. Not for bulk campaigns.",
      example: { first_name: "Maria", order: "A-10482" },
    }),
});

export const tierStatusSchema = z.object({
  tier: z.enum(MESSAGING_TIERS).nullable().meta({ description: "The sender's daily messaging limit; null while unknown (Test connection reads it)." }),
  limit: z.number().int().nullable().meta({ description: "Unique recipients per rolling 24 h; null for unlimited or unknown." }),
  usedLast24h: z
    .number()
    .int()
    .meta({ description: "Unique phone numbers the sender's WhatsApp business account messaged in the last 24 h, over all its numbers and earlier sender settings." }),
  available: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Recipients that can be reached now (the limit minus those used and the messages queued to go); null without a limit." }),
});

const checkIssueSchema = z.object({ path: z.string(), code: z.string(), message: z.string() });

export const launchCheckResponseSchema = z.object({
  ready: z.boolean().meta({ description: "True when `launch` would start now (with `allowTierWait` if `exceedsTier`)." }),
  errors: z.array(checkIssueSchema).meta({ description: "Everything that blocks the launch." }),
  warnings: z.array(checkIssueSchema).meta({ description: "Worth knowing, never blocking (e.g. the daily limit is unknown)." }),
  audienceCount: z.number().int().meta({ description: "Contacts who get a message (opted-out contacts never do), the same count as `POST /api/v1/audiences/count`." }),
  consent: z
    .object({
      marketing: z.boolean().meta({ description: "The template's category is MARKETING: only subscribed contacts get it unless unknown consent is included." }),
      includeUnknown: z.boolean(),
      subscribed: z.number().int(),
      unknown: z.number().int().meta({ description: "Contacts with unknown consent: sent to unless `marketing` and not `includeUnknown`." }),
      unsubscribed: z.number().int().meta({ description: "Contacts the audience selects who unsubscribed: never sent to (no message is stored)." }),
      skipped: z.number().int().meta({ description: "Contacts stored as `skipped` with error `no_consent` (part of `audienceCount`, never sent)." }),
      unknownWithEmptyVariables: z
        .number()
        .int()
        .meta({ description: "Of `unknown`, contacts with an empty variable: counted in `skippedForEmptyVariables` only while unknown consent is included." }),
    })
    .meta({ description: "The audience by consent." }),
  skippedForEmptyVariables: z
    .number()
    .int()
    .meta({ description: "Of `audienceCount`, contacts for whom a template variable has no value and no fallback: stored as `skipped` (`variables_missing`) at launch, never sent." }),
  tier: tierStatusSchema,
  exceedsTier: z.boolean().meta({ description: "The audience is larger than what the daily limit allows now." }),
  sendableNow: z.number().int().meta({ description: "Recipients that would be sent at once; the rest wait for the limit (with `allowTierWait`)." }),
  sendRatePerSecond: z.number().int().meta({ description: "The rate the campaign will send at." }),
  estimatedDurationSeconds: z.number().int().meta({ description: "How long sending `sendableNow` messages takes at that rate." }),
});

export const scheduleRequestSchema = z.object({
  scheduledAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/, "Use an ISO 8601 date-time, e.g. 2026-12-01T09:00.")
    .meta({ description: "When to start: a local date-time in `timeZone` (`2026-12-01T09:00`) or an instant with an offset.", example: "2026-12-01T09:00" }),
  timeZone: z.string().min(1).max(64).meta({ description: "IANA time zone, e.g. `Europe/Lisbon`.", example: "Europe/Lisbon" }),
  version: z.number().int().min(1).optional(),
  allowTierWait: z.boolean().optional(),
  includeUnknownConsent: z.boolean().optional().meta({ description: "Stored on the campaign's audience (see `audience.includeUnknownConsent`) before the checks." }),
});

export const launchRequestSchema = z
  .object({
    version: z.number().int().min(1).optional(),
    allowTierWait: z.boolean().optional().meta({ description: "Send what the daily limit allows now and hold the rest until it frees up, instead of a 422." }),
    includeUnknownConsent: z
      .boolean()
      .optional()
      .meta({ description: "With a MARKETING template, also send to contacts of unknown consent. Stored on the campaign's audience (see `audience.includeUnknownConsent`) and audited." }),
  })
  .default({});

export const RETARGET_AUDIENCES = ["failed", "not_delivered", "not_read"] as const;
export type RetargetAudience = (typeof RETARGET_AUDIENCES)[number];

export const retargetRequestSchema = z.object({
  audience: z.enum(RETARGET_AUDIENCES).meta({
    description: "`failed`: the send failed (WhatsApp's per-user marketing limit included); `not_delivered`: sent or failed but never delivered; `not_read`: never read (delivered or not).",
  }),
  name: z.string().trim().min(1).max(100).optional(),
});

export const funnelSchema = z
  .object({
    queued: z.number().int().meta({ description: "Not sent yet (waiting, being sent, or held by the daily limit)." }),
    sent: z.number().int().meta({ description: "Left for WhatsApp: sent, delivered or read." }),
    delivered: z.number().int().meta({ description: "Arrived: delivered or read." }),
    read: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int().meta({ description: "Deliberately not sent (cancelled, variables missing…)." }),
    replied: z.number().int().meta({ description: "Messages the contact replied to (each counted once, at its first reply): beside the funnel, not a step below `read`." }),
  })
  .meta({ description: "One cumulative funnel: sent ≥ delivered ≥ read; replied, failed and skipped apart; test sends never counted." });

export const progressResponseSchema = z.object({
  status: z.string(),
  total: z.number().int(),
  funnel: funnelSchema,
  held: z.number().int().meta({ description: "Of `queued`: held until the daily messaging limit frees up." }),
  topFailureReasons: z.array(z.object({ code: z.string().nullable(), reason: z.string().nullable(), count: z.number().int() })),
  ratePerSecond: z.number().meta({ description: "Messages sent per second over the last 10 s." }),
  estimatedFinishAt: z.string().nullable(),
  waitingUntil: z.string().nullable().meta({ description: "While messages are held by the daily limit: when the next ones can go." }),
});
