// The REST API's wire shapes. Request schemas are the shared ones from lib/<domain>; the response
// schemas here describe what the services return (the route tests parse real responses with them).
import { z } from "zod";
import { bulkSettingsSchema } from "@/lib/bulk/schemas";
import { draftRevisionSchema } from "@/lib/campaigns/revision";
import { sendPolicySchema } from "@/lib/campaigns/send-policy";
import { CAMPAIGN_KINDS, CAMPAIGN_STATUSES, messageConfigSchema, triggerConfigSchema } from "@/lib/campaigns/schemas";
import { attributeTypes, consentSources, consentStatuses, messageSources, optOutMethods } from "@/db/schema";
import { segmentFilterSchema } from "@/lib/audiences/filter";
import { CHANNEL_NAMES, INBOUND_KINDS } from "@/lib/channels/types";
import { LOG_STATUSES } from "@/lib/statuses/messages";
import { MAX_BATCH_SIZE } from "@/lib/trigger/validation";

export const timestamp = (description = "ISO 8601 date-time in UTC.") =>
  z.iso.datetime().meta({ description, example: "2026-11-21T14:03:07.512Z" });

export const opaqueId = (prefix: string, example: string) =>
  z.string().meta({ description: `Opaque identifier (starts with \`${prefix}_\`; treat it as an opaque string).`, example });

export const phone = z.string().meta({ description: "Phone number in E.164 format.", example: "+14155552671" });

export const EXAMPLE_IDS = {
  campaign: "cmp_8QmT2wLx4vYb9KcR",
  template: "tpl_3HnP7sQe1uVz6WdA",
  message: "msg_5JkL0pRt8yBn2XcF",
  contact: "ctc_9GhD4fSa7mQw1ZeV",
  workspace: "ws_2BvN6cXz0lKj8HgT",
  apiKey: "key_7TyU1iOp5aSd3FgH",
  list: "lst_4RtY8uIo2pAs6DfG",
  segment: "seg_6JkH3gFd9sAq1WeR",
  inboundMessage: "inm_3WqE5rTy7uIo9PaS",
  sender: "snd_1QaZ2wSx3eDc4RfV",
  conversation: "cnv_5TgB6yHn7uJm8IkO",
} as const;

// ── Problems ────────────────────────────────────────────────────────────────────────────────

export const fieldErrorSchema = z.object({
  path: z.string().meta({ description: "Where the problem is, e.g. `name`, `triggerConfig.fields[0].field`, `[3].phone`.", example: "name" }),
  code: z.string().meta({ description: "Machine-readable reason.", example: "too_small" }),
  message: z.string().meta({ description: "Human-readable explanation.", example: "Give the campaign a name." }),
});

export const problemSchema = z
  .looseObject({
    type: z.string().meta({ description: "Link to the error's entry in these docs (`/docs/api#error-<code>`).", example: "/docs/api#error-not_found" }),
    title: z.string().meta({ example: "Not found" }),
    status: z.number().int().meta({ example: 404 }),
    detail: z.string().meta({ example: "No campaign with this id exists in your workspace." }),
    instance: z.string().optional(),
    errors: z.array(fieldErrorSchema).optional().meta({ description: "Per-field problems (422 responses)." }),
    requestId: z.string().optional().meta({ description: "Quote it when contacting support.", example: "5b0c1e9a-2f4d-4c7e-9a41-6f3d2b8e7c10" }),
    windowEndsAt: z.iso
      .datetime()
      .nullable()
      .optional()
      .meta({ description: "`window_closed`: when the customer-service window closed (24 hours after the contact's last message); null when the contact never wrote." }),
  })
  .meta({ description: "RFC 9457 problem details (`application/problem+json`)." });

// ── Campaigns ───────────────────────────────────────────────────────────────────────────────

export const templateSummarySchema = z.object({
  id: opaqueId("tpl", EXAMPLE_IDS.template),
  name: z.string().meta({ example: "order_confirmation" }),
  language: z.string().meta({ example: "en_US" }),
  status: z.string().meta({ description: "Meta's review status (only `APPROVED` templates send).", example: "APPROVED" }),
});

export const deploymentSchema = z
  .object({
    webhookUrls: z.object({
      trigger: z.url().meta({ example: `https://app.sendstream.example/api/campaigns/${EXAMPLE_IDS.campaign}/trigger` }),
      outbound: z.url().meta({ example: `https://app.sendstream.example/outbound/${EXAMPLE_IDS.campaign}` }),
    }),
    limits: z.object({
      senderThroughputPerSecond: z.number().int(),
      messagingTier: z.string(),
      triggerRequestsPerMinute: z.number().int(),
    }),
    samplePayload: z
      .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .meta({ description: "An example trigger body: the trigger node's captured example, else one built from its field paths." }),
    curl: z.string().meta({ description: "A ready trigger request for this campaign." }),
  })
  .meta({ description: "Webhook URLs, sending limits and a sample trigger request; present once the campaign has been deployed." });

const campaignShape = {
  id: opaqueId("cmp", EXAMPLE_IDS.campaign),
  name: z.string().meta({ example: "Order confirmation" }),
  kind: z.enum(CAMPAIGN_KINDS),
  status: z.enum(CAMPAIGN_STATUSES).meta({ description: "`draft` → (deploy) → `active` ⇄ `paused`; any → `archived` → (unarchive) `draft`." }),
  triggerConfig: triggerConfigSchema,
  messageConfig: messageConfigSchema,
  templateId: z.string().nullable(),
  template: templateSummarySchema.nullable(),
  senderId: z
    .string()
    .nullable()
    .meta({ description: "The sender (`/api/v1/senders`) it sends through; messages keep the sender they were queued for. Null only for campaigns stored before campaigns named their sender (they use the default one).", example: EXAMPLE_IDS.sender }),
  rateLimitPerMinute: z.number().int().meta({ description: "Trigger requests accepted per minute for this campaign." }),
  respectOptOut: z.boolean().meta({
    description: "Trigger campaigns: a request for a contact who opted out is recorded as a `skipped` message (error `opted_out`) instead of being sent. Default true.",
  }),
  sendPolicy: sendPolicySchema,
  version: z.number().int().meta({ description: "Increases with every change; send it back as `version` for optimistic concurrency." }),
  deployedAt: timestamp().nullable(),
  draftRevision: draftRevisionSchema.nullable().optional(),
  bulk: bulkSettingsSchema.nullable().optional(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const campaignSchema = z.object({ ...campaignShape, deployment: deploymentSchema.nullable() });

export const campaignStatsSchema = z
  .object({
    total: z.number().int(),
    queued: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int().meta({ description: "Deliberately not sent (the contact opted out); the message's `error` says why." }),
    replied: z.number().int().meta({ description: "Messages the contact replied to (each counted once, at its first reply): beside the funnel, not a step below `read` (a reply can come before a read receipt)." }),
  })
  .meta({ description: "Message counts: `sent` includes delivered and read messages, `delivered` includes read ones; `replied`, `failed` and `skipped` apart." });

export const campaignListItemSchema = z.object({ ...campaignShape, stats: campaignStatsSchema });

export const nextCursorSchema = z
  .string()
  .nullable()
  .meta({ description: "Pass as `cursor` to read the next page; null on the last page." });

export const campaignPageSchema = z.object({ data: z.array(campaignListItemSchema), nextCursor: nextCursorSchema });

export const listCampaignsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: "Page size, 1–100.", example: 20 }),
  cursor: z.string().min(1).max(512).optional().meta({ description: "`nextCursor` from the previous page." }),
  status: z.enum(CAMPAIGN_STATUSES).optional().meta({ description: "Only campaigns with this status." }),
  includeArchived: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true")
    .meta({ description: "Include archived campaigns (left out by default unless `status=archived`)." }),
});

// ── Templates ───────────────────────────────────────────────────────────────────────────────

export const templateVariableSchema = z.object({
  key: z.string().meta({ description: "`header.<name>`, `body.<name>` or `button.<index>.<name>`; map it in `messageConfig.variables`.", example: "body.1" }),
  component: z.enum(["header", "body", "button"]),
  name: z.string().meta({ example: "1" }),
  buttonIndex: z.number().int().optional(),
  media: z.boolean().optional(),
  example: z.string().optional(),
});

export const templateSchema = z.object({
  id: opaqueId("tpl", EXAMPLE_IDS.template),
  name: z.string().meta({ example: "order_confirmation" }),
  language: z.string().meta({ example: "en_US" }),
  category: z.string().meta({ example: "UTILITY" }),
  status: z.string().meta({ example: "APPROVED", description: "`APPROVED`, `PENDING` (in review), `REJECTED`, `PAUSED` or `DISABLED` (WhatsApp stopped it: its campaigns are blocked), `DELETED` (gone from WhatsApp Manager)." }),
  statusReason: z.string().nullable().meta({ description: "Why WhatsApp rejected, paused or disabled it, in words; null otherwise." }),
  parameterFormat: z.enum(["POSITIONAL", "NAMED"]),
  components: z.array(z.unknown()).meta({ description: "Meta's component array, as WhatsApp Manager returns it." }),
  variables: z.array(templateVariableSchema),
  sandbox: z.boolean().meta({ description: "A demo template of the sandbox sender." }),
  syncedAt: timestamp("Last sync from WhatsApp Manager (ISO 8601 UTC); null for sandbox templates.").nullable(),
  submittedAt: timestamp("When it was submitted for review from this app (ISO 8601 UTC); null for synced and demo templates.").nullable(),
});

export const templateListSchema = z.object({ data: z.array(templateSchema), nextCursor: nextCursorSchema });

// ── Contacts ────────────────────────────────────────────────────────────────────────────────

const listRefSchema = z.object({ id: opaqueId("lst", EXAMPLE_IDS.list), name: z.string().meta({ example: "VIP customers" }) });

export const contactConsentSchema = z
  .object({
    status: z.enum(consentStatuses).meta({
      description:
        "`subscribed`: agreed to receive messages (marketing campaigns reach only them, unless a campaign includes unknown consent); `unsubscribed`: no campaign message ever; `unknown`: no record either way.",
    }),
    source: z.enum(consentSources).nullable().meta({ description: "How the status was set: `import`, `form`, `api`, `keyword` (a STOP / START reply), `button` (WhatsApp's Stop promotions), `manual`; null when never set." }),
    updatedAt: timestamp("When the status was set; null when never set.").nullable(),
    optedOut: z.boolean().meta({ description: "Deprecated: `status` is `unsubscribed`." }),
    optedOutAt: timestamp("Deprecated: when the contact unsubscribed.").nullable(),
    method: z.enum(optOutMethods).nullable().meta({ description: "Deprecated: how they unsubscribed: `manual`, `import`, `api` or `keyword` (a reply or the button)." }),
    detail: z.string().nullable().meta({ description: "Who or what unsubscribed them: the user's email, the API key's name, the import's file name, the keyword." }),
  })
  .meta({ description: "Consent to messages. `optedOut`, `optedOutAt` and `method` are kept for existing integrations; read `status`." });

export const contactSchema = z.object({
  id: opaqueId("ctc", EXAMPLE_IDS.contact),
  object: z.literal("contact"),
  phone,
  name: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()).meta({ description: "Custom attributes (trigger fields, imports and API updates, merged), typed by the attribute definitions." }),
  consent: contactConsentSchema,
  lists: z.array(listRefSchema).meta({ description: "The lists the contact belongs to, by name." }),
  lastMessageStatus: z.enum(LOG_STATUSES).nullable().meta({ description: "The status of the newest message to this contact, across campaigns." }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const contactPageSchema = z.object({ data: z.array(contactSchema), nextCursor: nextCursorSchema });

export const contactAttributeSchema = z.object({
  key: z.string().meta({ example: "city" }),
  type: z.enum(attributeTypes).meta({ description: "`date` values are written `YYYY-MM-DD`." }),
  createdAt: timestamp(),
});

export const contactAttributeListSchema = z.object({ data: z.array(contactAttributeSchema), nextCursor: nextCursorSchema });

export const listSchema = z.object({
  id: opaqueId("lst", EXAMPLE_IDS.list),
  object: z.literal("list"),
  name: z.string().meta({ example: "VIP customers" }),
  contactCount: z.number().int().meta({ description: "Members right now (opted-out ones included)." }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const listPageSchema = z.object({ data: z.array(listSchema), nextCursor: nextCursorSchema });

export const membershipResultSchema = z.object({
  listId: opaqueId("lst", EXAMPLE_IDS.list),
  changed: z.number().int().meta({ description: "Contacts added (or removed) by this request; those already in (or out) are not counted." }),
  unknownContactIds: z.array(z.string()).meta({ description: "Ids that match no contact of the workspace; nothing happened for them." }),
  unknownPhones: z.array(z.string()).meta({ description: "Phones that match no contact of the workspace; nothing happened for them." }),
  contactCount: z.number().int().meta({ description: "Members after the change." }),
});

export const segmentSchema = z.object({
  id: opaqueId("seg", EXAMPLE_IDS.segment),
  object: z.literal("segment"),
  name: z.string().meta({ example: "Lisbon VIPs" }),
  filter: segmentFilterSchema,
  contactCount: z.number().int().meta({ description: "Contacts the filter selects right now (opted-out ones included; audiences leave them out)." }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const segmentPageSchema = z.object({ data: z.array(segmentSchema), nextCursor: nextCursorSchema });

export const segmentCountSchema = z.object({ contactCount: z.number().int() });

// ── Messages ────────────────────────────────────────────────────────────────────────────────

const messageStatus = z.enum(LOG_STATUSES).meta({
  description:
    "`queued` → `sent` → `delivered` → `read`; `failed` from any point; `skipped` when the send was deliberately not made (final; `error.code` says why, e.g. `opted_out`).",
});

export const messageSchema = z.object({
  id: opaqueId("msg", EXAMPLE_IDS.message),
  object: z.literal("message"),
  direction: z.literal("outbound").meta({ description: "A message sent to the contact. Messages the contact sent are `inbound`." }),
  status: messageStatus,
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign).nullable().meta({ description: "Null for a conversation's reply (`source: \"reply\"`)." }),
  phone,
  template: z.object({ name: z.string(), language: z.string() }).nullable().meta({ description: "Null for a free-form reply (text, image, document) inside the customer-service window." }),
  text: z.string().meta({ description: "The message as the recipient reads it." }),
  wamid: z.string().nullable().meta({ description: "WhatsApp's message id once the provider accepted the message." }),
  error: z
    .object({ code: z.string().nullable(), reason: z.string() })
    .nullable()
    .meta({ description: "Why a message failed (WhatsApp's code and reason) or was skipped (code `opted_out`, reason such as \"Contact opted out (replied STOP on 2026-11-20)\")." }),
  attempts: z.number().int().meta({ description: "Send attempts made so far; a retryable failure is tried again after a growing pause." }),
  nextAttemptAt: timestamp()
    .nullable()
    .meta({ description: "While a message waits for a retry (`queued` after a failed attempt, with the failure in `error`): when the next attempt is due. Null otherwise." }),
  repliedAt: timestamp()
    .nullable()
    .meta({ description: "When the contact first replied to this campaign message (the campaign's `replied` step): the latest message sent to them on that number within the workspace's attribution window (72 h by default), or the one they quoted." }),
  source: z.enum(messageSources).meta({
    description: "What created the message: `trigger` (a webhook call), `bulk` (a bulk campaign's launch), `test` (a test send) or `reply` (a member's or an automatic reply in a conversation).",
  }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  sentAt: timestamp().nullable(),
  deliveredAt: timestamp().nullable(),
  readAt: timestamp().nullable(),
  failedAt: timestamp().nullable(),
});


const nullableText = (description: string) => z.string().nullable().meta({ description });

/** A message the contact sent to one of the workspace's numbers. */
export const inboundMessageSchema = z.object({
  id: opaqueId("inm", EXAMPLE_IDS.inboundMessage),
  object: z.literal("message"),
  direction: z.literal("inbound").meta({ description: "A message the contact sent." }),
  kind: z.enum(INBOUND_KINDS).meta({
    description: "`text`, `button` (a quick-reply button), `interactive` (a reply button or list row), `media` (image, video, audio, document, sticker), `location`, `reaction`, or `unsupported` (a kind not stored in detail).",
  }),
  phone,
  contactId: opaqueId("ctc", EXAMPLE_IDS.contact).nullable().meta({ description: "The contact (null once deleted)." }),
  senderId: z.string().nullable().meta({ description: "The number it arrived on." }),
  text: nullableText("What a person reads: the text, the button's or reply's title, the media's caption, the reaction's emoji."),
  payload: nullableText("A quick-reply button's payload, or the id of the chosen reply button or list row."),
  media: z
    .object({
      id: z.string().meta({ description: "WhatsApp's media id (download it through the Graph API)." }),
      mimeType: z.string().nullable(),
      caption: z.string().nullable(),
      filename: z.string().nullable(),
      kind: z.enum(["image", "video", "audio", "document", "sticker"]),
    })
    .nullable(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().nullable(), address: z.string().nullable() }).nullable(),
  reaction: z
    .object({ emoji: z.string().meta({ description: "Empty when the contact removed the reaction." }), wamid: z.string().meta({ description: "The message reacted to." }) })
    .nullable(),
  wamid: z.string().meta({ description: "WhatsApp's id of this message; a redelivery is stored once." }),
  replyToMessageId: opaqueId("msg", EXAMPLE_IDS.message)
    .nullable()
    .meta({ description: "The message of ours it answers (WhatsApp's context, or the message reacted to), when it is in the workspace." }),
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign)
    .nullable()
    .meta({ description: "The campaign it answers: that of `replyToMessageId`, else of the latest campaign message sent to the contact on that number within the attribution window." }),
  receivedAt: timestamp("When the contact sent it (WhatsApp's timestamp)."),
  createdAt: timestamp("When it was stored: the timeline's order."),
});

/** A contact's timeline: messages in both directions, each with its campaign's name. */
export const contactMessagePageSchema = z.object({
  data: z.array(
    z.discriminatedUnion("direction", [
      messageSchema.extend({ campaignName: z.string().meta({ example: "Order confirmation" }) }),
      inboundMessageSchema.extend({ campaignName: z.string().nullable().meta({ description: "The campaign of the message it answers.", example: "Order confirmation" }) }),
    ]),
  ),
  nextCursor: nextCursorSchema,
});

export const messagePageSchema = z.object({
  data: z.array(z.discriminatedUnion("direction", [messageSchema, inboundMessageSchema])).meta({
    description: "Messages sent (`direction: \"outbound\"`) and, in a campaign's logs, the replies contacts sent to them (`direction: \"inbound\"`), newest first.",
  }),
  nextCursor: nextCursorSchema,
  prevCursor: z.string().nullable().meta({ description: "Reads messages newer than this page (poll it for new arrivals)." }),
  hasNewer: z.boolean(),
  counts: z
    .object({
      total: z.number().int(),
      queued: z.number().int(),
      sent: z.number().int(),
      delivered: z.number().int(),
      read: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int(),
      replied: z.number().int().meta({ description: "Messages the contact replied to (each counted once, at its first reply): beside the funnel, not a step below `read` (a reply can come before a read receipt)." }),
      tests: z.number().int().meta({ description: "Test sends the filters select: listed, never counted." }),
    })
    .optional()
    .meta({
      description:
        "The campaign's cumulative funnel for the same filters (the status filter aside), as in the campaigns list: `sent` includes delivered and read messages, `delivered` includes read ones; `replied`, `failed` and `skipped` apart; test sends not counted. Only with `include=counts`.",
    }),
});

// ── Trigger ─────────────────────────────────────────────────────────────────────────────────

export const triggerItemSchema = z
  .looseObject({
    phone: z.string().optional().meta({
      description: "The recipient in E.164 (or the field the campaign maps to `phoneNumber`). Add the campaign's mapped fields; other fields are ignored.",
      example: "+14155552671",
    }),
  })
  .meta({ description: "One recipient: the phone field plus the campaign's mapped fields." });

export const triggerBodySchema = z.union([triggerItemSchema, z.array(triggerItemSchema).min(1).max(MAX_BATCH_SIZE)]);

export const acceptedMessageSchema = z.object({
  id: opaqueId("msg", EXAMPLE_IDS.message),
  status: z.enum(["queued", "skipped"]).meta({
    description:
      "`queued`: it is sent right after the response (or when the campaign's quiet hours end for the contact). `skipped`: the contact opted out and the campaign respects opt-outs (`respectOptOut`), or the contact is over the campaign's frequency cap (`sendPolicy.frequencyCap`); the message is recorded, never sent.",
  }),
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign),
  phone,
  createdAt: timestamp(),
  error: z
    .object({ code: z.enum(["opted_out", "frequency_cap"]), reason: z.string().meta({ example: "Contact opted out (replied STOP on 2026-11-20)" }) })
    .optional()
    .meta({ description: "Only on `skipped` messages: why nothing is sent." }),
});

/** A journey campaign's answer per item: the run it entered (its steps send), or why none did. */
export const acceptedRunSchema = z.object({
  id: opaqueId("run", "run_2VfH6tKw9mQz4PxL"),
  object: z.literal("journey_run"),
  status: z.enum(["active", "skipped"]).meta({
    description:
      "`active`: the contact entered the journey at its first step, which runs right after the response. `skipped`: no run; the contact opted out and the campaign respects opt-outs, or the journey's re-entry rule refuses them.",
  }),
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign),
  phone,
  createdAt: timestamp(),
  error: z
    .object({ code: z.enum(["opted_out", "journey_reentry"]), reason: z.string().meta({ example: "The contact is already in this journey; it lets a contact in again once their run is over." }) })
    .optional()
    .meta({ description: "Only on `skipped` items: why no run entered." }),
});

export const triggerAcceptedSchema = z.union([
  acceptedMessageSchema,
  z.object({ data: z.array(acceptedMessageSchema) }),
  acceptedRunSchema,
  z.object({ data: z.array(acceptedRunSchema) }),
]);

const dryRunItemSchema = z.object({
  status: z.literal("valid"),
  campaignId: z.string(),
  phone,
  text: z.string(),
  template: z.object({ name: z.string(), language: z.object({ code: z.string() }), components: z.array(z.unknown()) }),
  attributes: z.record(z.string(), z.unknown()),
});

/** A journey campaign's dry run: the items validate; its messages are rendered by the steps, later. */
const journeyDryRunItemSchema = z.object({ status: z.literal("valid"), campaignId: z.string(), phone, attributes: z.record(z.string(), z.unknown()) });

export const triggerDryRunSchema = z.union([
  z.object({ dryRun: z.literal(true), ...dryRunItemSchema.shape }),
  z.object({ dryRun: z.literal(true), data: z.array(dryRunItemSchema) }),
  z.object({ dryRun: z.literal(true), ...journeyDryRunItemSchema.shape }),
  z.object({ dryRun: z.literal(true), data: z.array(journeyDryRunItemSchema) }),
]);

// ── Me ──────────────────────────────────────────────────────────────────────────────────────

export const meSchema = z.object({
  workspace: z.object({ id: opaqueId("ws", EXAMPLE_IDS.workspace), name: z.string() }),
  key: z
    .object({ id: opaqueId("key", EXAMPLE_IDS.apiKey), name: z.string() })
    .nullable()
    .meta({ description: "The API key the request authenticated with; null for the signed-in web app." }),
  user: z
    .object({ id: opaqueId("usr", "usr_8cLq2ZRt5WnY"), email: z.string(), name: z.string() })
    .nullable()
    .meta({ description: "The signed-in user, when the request came from the web app; null for an API key." }),
});

// ── Senders ─────────────────────────────────────────────────────────────────────────────────

export const senderSchema = z.object({
  id: opaqueId("snd", EXAMPLE_IDS.sender),
  object: z.literal("sender"),
  name: z.string().meta({ example: "Brand FR" }),
  provider: z.enum(CHANNEL_NAMES).meta({ description: "`sandbox` simulates delivery and reaches no phone; `whatsapp` is a WhatsApp Cloud API number." }),
  isDefault: z.boolean().meta({ description: "The workspace's default sender: campaigns created without `senderId` send through it. Exactly one sender is the default." }),
  status: z.enum(["connected", "untested", "disconnected"]).meta({
    description: "`connected`: the sandbox, or the last connection test passed; `untested`: credentials changed since; `disconnected`: the last test failed.",
  }),
  phoneNumberId: z.string().nullable().meta({ example: "106540352242922" }),
  wabaId: z.string().nullable().meta({ description: "The WhatsApp Business Account: its numbers share the daily messaging limit and its templates.", example: "102290129340398" }),
  displayPhoneNumber: z.string().nullable().meta({ example: "+33 6 12 34 56 78" }),
  throughputPerSecond: z.number().int().meta({ description: "Messages per second the number may send (80, 1,000 when Meta upgraded it, 20 for a number also on the WhatsApp Business app).", example: 80 }),
  messagingTier: z.string().nullable().meta({ description: "The business account's daily messaging limit (`TIER_250` … `TIER_UNLIMITED`); null while unknown.", example: "TIER_10K" }),
  messagingLimit: z.string().meta({ description: "The limit in words.", example: "10,000 customers / 24 h" }),
  qualityRating: z.string().nullable().meta({ description: "WhatsApp's quality rating at the last connection test (`GREEN`, `YELLOW`, `RED`).", example: "GREEN" }),
  configured: z.boolean().meta({ description: "It has what it needs to send (ids and an access token; the sandbox always)." }),
  credentials: z
    .object({ accessToken: z.boolean(), appSecret: z.boolean(), verifyToken: z.boolean() })
    .meta({ description: "Which secrets are stored. Secrets are never returned." }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

export const senderPageSchema = z.object({ data: z.array(senderSchema), nextCursor: nextCursorSchema });
