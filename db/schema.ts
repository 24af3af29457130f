import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  check,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CHANNEL_NAMES } from "../lib/channels/types";
import { SOURCE_KINDS } from "../lib/sources/kinds";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const optOutMethods = ["manual", "import", "api", "keyword"] as const;
export type OptOutMethod = (typeof optOutMethods)[number];
/** A contact's consent to business-initiated messages (lib/contacts/consent.ts writes it). */
export const consentStatuses = ["subscribed", "unsubscribed", "unknown"] as const;
export type ConsentStatus = (typeof consentStatuses)[number];
/** Where the current consent status came from. */
export const consentSources = ["import", "form", "api", "keyword", "button", "manual"] as const;
export type ConsentSource = (typeof consentSources)[number];
/** The kinds of inbound message (`InboundKind` in lib/channels/types.ts, checked equal in lib/inbound). */
export const inboundKinds = ["text", "button", "interactive", "media", "location", "reaction", "unsupported"] as const;
export const attributeTypes = ["string", "number", "boolean", "date"] as const;
export type AttributeType = (typeof attributeTypes)[number];

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  /** Null for users who only sign in through an OAuth provider. */
  passwordHash: text("password_hash"),
  /** Sessions carry the value they were signed in with; raising it (a password reset) signs every one out. */
  sessionVersion: integer("session_version").notNull().default(0),
  /**
   * When the owner of the address proved it: a mailed link opened while signed in, a password reset,
   * or an OAuth provider that verified it. Null: anyone may have typed the address at sign-up, so
   * the account can sign in with its password but is never joined to an OAuth login.
   */
  emailVerifiedAt: at("email_verified_at"),
  createdAt: createdAt(),
});

/** A table of single-use links mailed to a user: only a SHA-256 of the token is stored; a used or expired row no longer works. */
function singleUseLinkTokens<const Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      id: text("id").primaryKey(),
      userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
      tokenHash: text("token_hash").notNull().unique(),
      expiresAt: at("expires_at").notNull(),
      usedAt: at("used_at"),
      createdAt: createdAt(),
    },
    (t) => [index(`${name}_user_idx`).on(t.userId)],
  );
}

/** Email verification links (48 hours). */
export const emailVerificationTokens = singleUseLinkTokens("email_verification_tokens");

/** Password reset links. */
export const passwordResetTokens = singleUseLinkTokens("password_reset_tokens");

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Inbound replies that opt a contact out, besides STOP and UNSUBSCRIBE (upper case, trimmed). */
  optOutKeywords: jsonb("opt_out_keywords").$type<string[]>().notNull().default([]),
  /** ISO 3166 code of the country a phone number without a country code is read in (import, test send); null: none. */
  defaultCountry: text("default_country"),
  /** A campaign's `replied` step counts a reply that arrives this many hours after its latest message to the contact. */
  replyAttributionHours: integer("reply_attribution_hours").notNull().default(72),
  /** False: members see only the conversations assigned to them or to nobody (owners and admins see all). */
  inboxMembersSeeAll: boolean("inbox_members_see_all").notNull().default(true),
  /**
   * Sandbox only: four contacts of each bulk campaign answer once they read it (three questions and
   * a STOP that opts them out), so the inbox is alive in a demo. Off unless asked for (the demo
   * workspace has it on): a simulated STOP must never opt out someone's real customer.
   */
  sandboxAudienceReplies: boolean("sandbox_audience_replies").notNull().default(false),
  createdAt: createdAt(),
});

/** owner: everything; admin: everything but deleting the workspace and the owner; member: campaigns, contacts, logs. */
export const memberRoles = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: memberRoles }).notNull().default("owner"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 hex of the full key; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** Shown in lists, e.g. `ss_Ab12…wxyz`. */
    displayKey: text("display_key").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
    deletedAt: at("deleted_at"),
    /** `full`: every API route; `trigger`: only the trigger endpoint of `campaign_ids`. */
    scope: text("scope", { enum: ["full", "trigger"] }).notNull().default("full"),
    /** The campaigns a `trigger` key may trigger (empty for `full`). */
    campaignIds: text("campaign_ids").array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_workspace_idx").on(t.workspaceId)],
);

export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Set instead of the user when an API key acted. */
    actorApiKeyId: text("actor_api_key_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** Whether a sender can send: `connected` (sandbox, or the last connection test passed), `untested`, `disconnected` (the last test failed). */
export const senderStatuses = ["connected", "untested", "disconnected"] as const;

/** A workspace's sending identities (WhatsApp Cloud API numbers, the built-in sandbox); exactly one is its default. */
export const senders = pgTable(
  "senders",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** What people call it in the app ("Brand FR", "Test number"). */
    name: text("name").notNull().default("WhatsApp"),
    /** The one sender campaigns use when they name none (at most one per workspace). */
    isDefault: boolean("is_default").notNull().default(false),
    /** The channel the sender sends through (lib/channels). */
    provider: text("provider", { enum: CHANNEL_NAMES }).notNull().default("sandbox"),
    phoneNumberId: text("phone_number_id"),
    wabaId: text("waba_id"),
    displayPhoneNumber: text("display_phone_number"),
    /** AES-256-GCM ciphertexts (see lib/crypto). */
    accessTokenEncrypted: text("access_token_encrypted"),
    appSecretEncrypted: text("app_secret_encrypted"),
    verifyTokenEncrypted: text("verify_token_encrypted"),
    throughputPerSecond: integer("throughput_per_second").notNull().default(80),
    /** The business account's daily messaging limit (lib/senders/tier.ts), shared by its numbers. */
    messagingTier: text("messaging_tier"),
    /** WhatsApp's quality rating of the number (GREEN, YELLOW, RED, UNKNOWN) at the last connection test. */
    qualityRating: text("quality_rating"),
    status: text("status", { enum: senderStatuses }).notNull().default("untested"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("senders_workspace_idx").on(t.workspaceId, t.createdAt),
    uniqueIndex("senders_workspace_default_idx").on(t.workspaceId).where(sql`is_default`),
  ],
);

/**
 * Every sender id and the messaging account it sent for (`lib/senders/messaging-account.ts`). The
 * daily messaging limit is the WhatsApp business account's, shared by its numbers, and a provider or
 * number change gives the sender a new id: usage is counted over all the ids of the account. No
 * foreign key: the ids of replaced senders no longer exist in `senders`, and their sends still count.
 */
export const senderAccounts = pgTable(
  "sender_accounts",
  {
    account: text("account").notNull(),
    senderId: text("sender_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.account, t.senderId] })],
);

export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    externalId: text("external_id"),
    /** The business account it belongs to (`waba:<id>`, or `sandbox` for the demo templates): a sender sends its account's templates. */
    account: text("account").notNull().default(""),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category").notNull(),
    status: text("status").notNull(),
    /** Why WhatsApp rejected, paused or disabled it, in words (null when approved or pending). */
    statusReason: text("status_reason"),
    /** When it was submitted for review from this app (null for synced and demo templates). */
    submittedAt: at("submitted_at"),
    parameterFormat: text("parameter_format", { enum: ["POSITIONAL", "NAMED"] }).notNull().default("POSITIONAL"),
    components: jsonb("components").$type<unknown[]>().notNull().default([]),
    syncedAt: at("synced_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("templates_workspace_account_name_language_idx").on(t.workspaceId, t.account, t.name, t.language)],
);

/** Trigger campaigns: draft → active ⇄ paused. Bulk: draft → scheduled → sending ⇄ paused → completed, or cancelled. Any → archived. */
export const campaignStatuses = ["draft", "active", "paused", "archived", "scheduled", "sending", "completed", "cancelled"] as const;

export const campaigns = pgTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["trigger", "bulk"] }).notNull().default("trigger"),
    status: text("status", { enum: campaignStatuses }).notNull().default("draft"),
    /** Trigger node: request field → contact attribute mapping with types and required flags. */
    triggerConfig: jsonb("trigger_config").$type<Record<string, unknown>>().notNull().default({}),
    /** Message action: template and variable → attribute mapping with fallbacks. */
    messageConfig: jsonb("message_config").$type<Record<string, unknown>>().notNull().default({}),
    templateId: text("template_id").references(() => templates.id, { onDelete: "set null" }),
    /** The number it sends from (null: the workspace's default sender, for rows older than senders). */
    // A replaced number's new id carries over to its campaigns; a sender in use is never deleted.
    senderId: text("sender_id").references(() => senders.id, { onDelete: "no action", onUpdate: "cascade" }),
    /** Trigger requests allowed per minute for this campaign. */
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(600),
    /** Trigger campaigns: skip (and record) sends to opted-out contacts. Bulk campaigns always do. */
    respectOptOut: boolean("respect_opt_out").notNull().default(true),
    /** Quiet hours and a per-contact frequency cap (lib/campaigns/send-policy.ts); `{}` is none. */
    sendPolicy: jsonb("send_policy").$type<Record<string, unknown>>().notNull().default({}),
    /** Bulk campaigns: who receives it (`{ listIds, segmentIds, excludeContactIds? }`); opted-out contacts never do. */
    audience: jsonb("audience").$type<Record<string, unknown>>().notNull().default({}),
    /** Bulk campaigns: when a scheduled campaign starts, and the IANA zone it was chosen in. */
    scheduledAt: at("scheduled_at"),
    scheduleTimeZone: text("schedule_time_zone"),
    /** Bulk campaigns: messages per second, at or below the sender's throughput (null: the sender's). */
    sendRatePerSecond: integer("send_rate_per_second"),
    /** Bulk campaigns: an audience above the sender's daily tier sends what fits and holds the rest until the window frees up. */
    allowTierWait: boolean("allow_tier_wait").notNull().default(false),
    launchedAt: at("launched_at"),
    completedAt: at("completed_at"),
    version: integer("version").notNull().default(1),
    deployedAt: at("deployed_at"),
    /**
     * Trigger campaigns: pending edits of an active (or paused) campaign (name, mapping, template,
     * limits; lib/campaigns/revision.ts). Triggers never read it; publishing copies it onto the
     * columns above in one update. Null when there is nothing to publish.
     */
    draftRevision: jsonb("draft_revision").$type<Record<string, unknown>>(),
    /**
     * Trigger campaigns: the steps after the trigger (lib/journeys/schemas.ts); null for a campaign that
     * sends its one message. Each published document is kept in `journey_versions` (runs follow theirs).
     */
    journey: jsonb("journey").$type<Record<string, unknown>>(),
    /** The `journey_versions.version` new runs enter; 0 while it has no journey. */
    journeyVersion: integer("journey_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("campaigns_workspace_idx").on(t.workspaceId, t.createdAt),
    // "Does the workspace have journeys?", asked by every trigger request (lib/trigger/context.ts):
    // one probe of an index that holds only journey campaigns, whatever the workspace's size.
    index("campaigns_workspace_journeys_idx").on(t.workspaceId).where(sql`${t.journeyVersion} > 0`),
    // The target of messages' (campaign, workspace) key: a message always belongs to its campaign's workspace.
    unique("campaigns_id_workspace_unique").on(t.id, t.workspaceId),
  ],
);

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    name: text("name"),
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull().default({}),
    /** Set while the contact is opted out; cleared when they opt back in. */
    optedOutAt: at("opted_out_at"),
    optOutMethod: text("opt_out_method", { enum: optOutMethods }),
    /** Who or what opted them out: the user's email, the API key's name, the import's file, the keyword. */
    optOutDetail: text("opt_out_detail"),
    /** `unsubscribed` exactly while `opted_out_at` is set (the check below). */
    consentStatus: text("consent_status", { enum: consentStatuses }).notNull().default("unknown"),
    consentSource: text("consent_source", { enum: consentSources }),
    /** When the status was last set. */
    consentAt: at("consent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also `contacts_consent_opt_out_check`: (consent_status = 'unsubscribed') = (opted_out_at is not null), added by
    // hand in its migration after the backfill (drizzle would add it before any row could satisfy it).
    check("contacts_consent_status_check", sql`${t.consentStatus} in ('subscribed', 'unsubscribed', 'unknown')`),
    uniqueIndex("contacts_workspace_phone_idx").on(t.workspaceId, t.phoneNumber),
    index("contacts_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    // Also, by hand in migration 0029: `attributes_folded`, a stored generated column (ss_fold_attributes(attributes)) with its
    // GIN index `contacts_attributes_folded_idx`; only the segment compiler (lib/audiences/segments.ts) reads it. It serves
    // every equals condition, exact ones too, so `attributes` has no index of its own (migration 0042).
  ],
);

/** A workspace's contact attributes and their types, for typed editing, import mapping and segments. */
export const contactAttributes = pgTable(
  "contact_attributes",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    type: text("type", { enum: attributeTypes }).notNull().default("string"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);

/** Static audiences: contacts added by hand, by import or by the API. */
export const contactLists = pgTable(
  "contact_lists",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("contact_lists_workspace_name_idx").on(t.workspaceId, t.name)],
);

export const contactListMembers = pgTable(
  "contact_list_members",
  {
    /** A key to `contact_lists` kept by triggers of migration 0043 (checked once per statement; deleted with its list), not a foreign key. */
    listId: text("list_id").notNull(),
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.contactId] }), index("contact_list_members_contact_idx").on(t.contactId)],
);

/** Dynamic audiences: a saved filter over contacts, counted live. */
export const segments = pgTable(
  "segments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    filter: jsonb("filter").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("segments_workspace_name_idx").on(t.workspaceId, t.name)],
);

export const importStatuses = ["awaiting_file", "processing", "completed", "failed"] as const;

/** A CSV import job: its options, progress counters and final report. */
export const contactImports = pgTable(
  "contact_imports",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status", { enum: importStatuses }).notNull().default("awaiting_file"),
    fileName: text("file_name").notNull(),
    /** Column mapping, default country, whether existing contacts are updated. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    listId: text("list_id").references(() => contactLists.id, { onDelete: "set null" }),
    rowsRead: integer("rows_read").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    invalid: integer("invalid").notNull().default(0),
    error: text("error"),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdByApiKeyId: text("created_by_api_key_id"),
    /** The claim owner (lib/messaging/owner.ts) of the process storing or merging the file: once its lock is free, the work is taken over at once. */
    owner: integer("owner"),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("contact_imports_workspace_created_idx").on(t.workspaceId, t.createdAt.desc()),
    // The recovery sweep's scan: the few jobs being stored or merged.
    index("contact_imports_processing_idx").on(t.updatedAt).where(sql`status = 'processing'`),
  ],
);

/** An import's rows as read from the file (a staging table: loaded with COPY, merged by ranges of phones). */
export const contactImportRows = pgTable(
  "contact_import_rows",
  {
    /**
     * The job's id. No foreign key: it would be checked once per staged row (a third of the time of a
     * million-row COPY). The job is claimed before its rows are staged, and deleting a job deletes its
     * rows (the trigger `contact_imports_delete_rows`, migration 0038).
     */
    importId: text("import_id").notNull(),
    rowNumber: integer("row_number").notNull(),
    /** E.164, or null when the row is invalid. */
    phone: text("phone"),
    name: text("name"),
    attributes: jsonb("attributes").$type<Record<string, unknown>>(),
    /** The consent status the row states; null leaves the contact's consent as it is. */
    consent: text("consent", { enum: consentStatuses }),
    /** Why the row was rejected; null for a valid row. */
    error: text("error"),
    /** The row as it was in the file, for the rejected-rows download. */
    raw: text("raw"),
  },
  // No primary key: maintaining one cost a third of a million-row COPY. The staged rows are read
  // whole (counted, sampled, merged by ranges of phones, deleted) by scans; only the refused rows
  // are read by number (the rejected-rows download), through this index of them alone.
  (t) => [index("contact_import_rows_refused_idx").on(t.importId, t.rowNumber).where(sql`error is not null`)],
);

/**
 * A large import's merge in parts: ranges of phone numbers (in the column's collation), each merged in its own
 * transaction, so that several connections merge at once and a crash resumes at the first range
 * not yet merged. Planned once per import, deleted when the import completes.
 */
export const contactImportChunks = pgTable(
  "contact_import_chunks",
  {
    importId: text("import_id").notNull().references(() => contactImports.id, { onDelete: "cascade" }),
    chunk: integer("chunk").notNull(),
    /** The range's first phone (inclusive); null: from the start. */
    phoneFrom: text("phone_from"),
    /** The next range's first phone (exclusive); null: to the end. */
    phoneTo: text("phone_to"),
    mergedAt: at("merged_at"),
  },
  (t) => [primaryKey({ columns: [t.importId, t.chunk] })],
);

/** `skipped`: deliberately not sent (the contact opted out, …); `error_code` says why. */
export const messageStatuses = ["queued", "sending", "sent", "delivered", "read", "failed", "skipped"] as const;
export type MessageStatus = (typeof messageStatuses)[number];
/**
 * `trigger`, `test` and `reply` messages go before `bulk` ones on the same sender; `test` sends stay
 * out of campaign counts; `reply` messages are a conversation's (lib/conversations): no campaign.
 */
export const messageSources = ["trigger", "bulk", "test", "reply"] as const;
export type MessageSource = (typeof messageSources)[number];

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    /** With campaign_id one foreign key (one check per inserted row, not two): the campaign's workspace. */
    workspaceId: text("workspace_id").notNull(),
    /** Null only for a conversation's reply (`source = 'reply'`). */
    campaignId: text("campaign_id"),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /**
     * The sender the message was queued for, and the only one that may send it. No foreign key: a
     * provider or phone-number change gives the workspace's sender a new id, and the messages of the
     * old one keep naming it (they are failed with `sender_changed`, never sent by the new one).
     */
    senderId: text("sender_id"),
    apiKeyId: text("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    phoneNumber: text("phone_number").notNull(),
    /** Null for a free-form reply (text, image, document). */
    templateName: text("template_name"),
    templateLanguage: text("template_language"),
    /** The message as the recipient reads it, for logs and export. */
    renderedText: text("rendered_text").notNull(),
    /** The member who wrote a conversation's reply; null for campaign messages, automatic replies and API keys' replies. */
    authorUserId: text("author_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The keyword auto-reply that sent it (lib/inbound/auto-replies.ts). No foreign key: a deleted rule's answers stay automatic. */
    autoReplyId: text("auto_reply_id"),
    /** Provider-ready content: `{ template }`, or for a reply `{ text }`, `{ image }`, `{ document }`. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: messageStatuses }).notNull().default("queued"),
    source: text("source", { enum: messageSources }).notNull().default("trigger"),
    /** The channel's id of the message once it accepted it (WhatsApp: the wamid; the column keeps that name). */
    providerMessageId: text("wamid"),
    errorCode: text("error_code"),
    errorReason: text("error_reason"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lockedUntil: at("locked_until"),
    /**
     * The dispatching process holding the claim (the key of its session advisory lock, lib/messaging/owner.ts):
     * a claim whose owner's lock is free belongs to a process that is gone and is taken over at once.
     */
    claimOwner: integer("claim_owner"),
    /**
     * Set (committed) before the current attempt's request leaves; cleared when the row is queued again.
     * A claimed row found with it set may have reached Meta: it is never sent again (outcome unknown).
     */
    inFlightAt: at("in_flight_at"),
    sentAt: at("sent_at"),
    deliveredAt: at("delivered_at"),
    readAt: at("read_at"),
    failedAt: at("failed_at"),
    /**
     * When the contact first replied to this message: the latest sent campaign message to the contact
     * within the workspace's attribution window before the reply (lib/conversations/attribution.ts).
     */
    repliedAt: at("replied_at"),
    /** The journey run and step that sent it (lib/journeys); null for a campaign's one message and for bulk. No foreign key: runs are pruned, the log keeps the step. */
    journeyRunId: text("journey_run_id"),
    journeyStepId: text("journey_step_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({ name: "messages_campaign_workspace_fk", columns: [t.campaignId, t.workspaceId], foreignColumns: [campaigns.id, campaigns.workspaceId] }).onDelete("cascade"),
    index("messages_campaign_created_idx").on(t.campaignId, t.createdAt.desc(), t.id.desc()),
    index("messages_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    // The logs' phone search (digits anywhere in the number, `like '%…%'`): trigrams (pg_trgm, migration 0040) find the few
    // matching rows of ten million instead of reading them all; three digits or more.
    index("messages_phone_trgm_idx").using("gin", sql`${t.phoneNumber} gin_trgm_ops`),
    index("messages_contact_created_idx").on(t.contactId, t.createdAt.desc()),
    check("messages_campaign_unless_reply", sql`campaign_id is not null or source = 'reply'`),
    // Due trigger and test messages (claimed first); bulk ones are claimed per sending campaign.
    index("messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status in ('queued', 'sending') and source <> 'bulk'`),
    index("messages_bulk_due_idx")
      .on(t.campaignId, t.nextAttemptAt)
      .where(sql`status in ('queued', 'sending') and source = 'bulk'`),
    // Queued rows have no wamid yet: they stay out of this index (a million-row snapshot writes none).
    uniqueIndex("messages_wamid_idx").on(t.providerMessageId).where(sql`wamid is not null`),
    // A bulk campaign reaches each contact at most once, however often its launch is retried.
    uniqueIndex("messages_bulk_recipient_idx")
      .on(t.campaignId, t.contactId)
      .where(sql`source = 'bulk'`),
    // Bulk progress (counts per status, the rate of the last seconds) and completion read only this.
    index("messages_bulk_campaign_status_idx")
      .on(t.campaignId, t.status, t.sentAt)
      .where(sql`source = 'bulk'`),
    // The daily tier: unique recipients a sender reached in the last 24 h.
    index("messages_sender_sent_idx")
      .on(t.senderId, t.sentAt)
      .where(sql`sent_at is not null`),
    // A campaign's replied step and its Replies filter.
    index("messages_campaign_replied_idx").on(t.campaignId, t.repliedAt).where(sql`replied_at is not null`),
    // A journey run's queued messages, skipped when the run ends.
    index("messages_journey_run_idx").on(t.journeyRunId).where(sql`journey_run_id is not null`),
    // Alerts: the failures of the last minutes (failed rows only, a small index).
    index("messages_failed_at_idx").on(t.failedAt).where(sql`status = 'failed'`),
    // Test sends: listed in the logs but never counted, so the logs count them apart (few rows).
    index("messages_test_idx").on(t.workspaceId, t.campaignId).where(sql`source = 'test'`),
  ],
);

/**
 * Exact message counts per campaign, UTC day of creation and status (test sends and replies left
 * out: the funnel's messages), so no page counts a campaign's messages row by row. Statement
 * triggers on `messages` (migration 0037) write what each insert, status change, reply mark or
 * delete changes into `campaign_message_count_deltas` in the same transaction; the
 * `campaigns.counts` job folds deltas into this table. Readers add both in one statement
 * (lib/campaigns/counts.ts), so a count is exact at every moment, folded or not.
 */
export const campaignMessageCounts = pgTable(
  "campaign_message_counts",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    status: text("status", { enum: messageStatuses }).notNull(),
    messages: bigint("messages", { mode: "number" }).notNull(),
    replied: bigint("replied", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.status] }), index("campaign_message_counts_workspace_idx").on(t.workspaceId)],
);

/**
 * What message writes changed in `campaign_message_counts`, not folded in yet. Append-only: writers
 * never wait on each other's counter rows (no lock, no deadlock between a claim and a status
 * webhook). No foreign key: the fold drops the deltas of a deleted campaign.
 */
export const campaignMessageCountDeltas = pgTable(
  "campaign_message_count_deltas",
  {
    workspaceId: text("workspace_id").notNull(),
    campaignId: text("campaign_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    status: text("status", { enum: messageStatuses }).notNull(),
    messages: integer("messages").notNull(),
    replied: integer("replied").notNull(),
  },
  (t) => [index("campaign_message_count_deltas_scope_idx").on(t.workspaceId, t.campaignId)],
);

/**
 * Messages contacts sent to one of the workspace's numbers (`lib/inbound`). Outbound messages stay
 * in `messages` (claims, counts, funnel, caps and tier usage read only outbound rows). A message is
 * stored once per workspace by the provider's id; `reply_to_message_id` is the outbound message it
 * answers (the provider's context id, looked up in the workspace) and `campaign_id` that message's
 * campaign, which puts the reply in the campaign's logs.
 */
export const inboundMessages = pgTable(
  "inbound_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    /** The number it arrived on. No foreign key, as on `messages`: a replaced sender's id stays named. */
    senderId: text("sender_id"),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** The contact's number (E.164), kept when the contact is deleted. */
    phoneNumber: text("phone_number").notNull(),
    /** The provider's id of the message (WhatsApp: wamid). */
    providerMessageId: text("provider_message_id").notNull(),
    kind: text("kind", { enum: inboundKinds }).notNull(),
    text: text("text"),
    payload: text("payload"),
    media: jsonb("media").$type<{ id: string; mimeType: string | null; caption: string | null; filename: string | null; kind: "image" | "video" | "audio" | "document" | "sticker" }>(),
    location: jsonb("location").$type<{ latitude: number; longitude: number; name: string | null; address: string | null }>(),
    reaction: jsonb("reaction").$type<{ emoji: string; providerMessageId: string }>(),
    contextProviderMessageId: text("context_provider_message_id"),
    replyToMessageId: text("reply_to_message_id").references(() => messages.id, { onDelete: "set null" }),
    campaignId: text("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    /** When the contact sent it (the provider's timestamp). */
    receivedAt: at("received_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("inbound_messages_workspace_provider_id_idx").on(t.workspaceId, t.providerMessageId),
    // The contact's timeline and a campaign's logs, newest first under the keyset cursor.
    index("inbound_messages_contact_created_idx").on(t.contactId, t.createdAt.desc(), t.id.desc()),
    index("inbound_messages_campaign_created_idx")
      .on(t.campaignId, t.createdAt.desc(), t.id.desc())
      .where(sql`campaign_id is not null`),
    index("inbound_messages_reply_to_idx")
      .on(t.replyToMessageId)
      .where(sql`reply_to_message_id is not null`),
  ],
);

/**
 * Keyword auto-replies of one number (lib/inbound/auto-replies.ts): a contact's message that is
 * exactly `keyword` (compared like consent keywords: case, surrounding spaces and punctuation
 * ignored), or a quick-reply button / interactive reply with that payload or title, is answered at
 * once with a text or a template, inside the customer-service window the message just opened.
 */
export const autoReplies = pgTable(
  "auto_replies",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    /** Follows the sender when a number change gives it a new id (lib/senders/service.ts replaceSenderIdentity). */
    senderId: text("sender_id").notNull().references(() => senders.id, { onDelete: "cascade", onUpdate: "cascade" }),
    /** Normalised (`normaliseReply`): upper case, no surrounding punctuation. */
    keyword: text("keyword").notNull(),
    replyType: text("reply_type", { enum: ["text", "template"] }).notNull(),
    text: text("text"),
    templateId: text("template_id").references(() => templates.id, { onDelete: "cascade" }),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("auto_replies_sender_keyword_idx").on(t.workspaceId, t.senderId, t.keyword)],
);

/** Canned answers members insert into a conversation's reply; `{{attribute}}` is filled from the contact. */
export const savedReplies = pgTable(
  "saved_replies",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    /** What members pick it by ("Shipping times"). */
    title: text("title").notNull(),
    body: text("body").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("saved_replies_workspace_title_idx").on(t.workspaceId, t.title)],
);

/** `open` until a member closes it; a new inbound message reopens it. */
export const conversationStatuses = ["open", "closed"] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

/**
 * A contact and one of the workspace's numbers (lib/conversations). Created by the contact's first
 * message to that number (or a member writing first); its timeline is the messages of both
 * directions between the two plus its `conversation_events`. `last_inbound_at` opens WhatsApp's
 * 24-hour customer-service window; `unread` counts inbound messages since a member last opened it.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    /** The number. No foreign key, as on `messages`: a replaced sender's id stays named. */
    senderId: text("sender_id").notNull(),
    status: text("status", { enum: conversationStatuses }).notNull().default("open"),
    assigneeUserId: text("assignee_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The campaign whose message the contact's first reply answered. */
    campaignId: text("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    lastInboundAt: at("last_inbound_at"),
    /** The newest message of either direction, or note: the inbox's order. */
    lastActivityAt: at("last_activity_at").notNull().defaultNow(),
    /** One line of the newest message, for the list. */
    lastPreview: text("last_preview"),
    lastDirection: text("last_direction", { enum: ["inbound", "outbound"] }),
    unread: integer("unread").notNull().default(0),
    closedAt: at("closed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("conversations_contact_sender_idx").on(t.workspaceId, t.contactId, t.senderId),
    index("conversations_workspace_activity_idx").on(t.workspaceId, t.lastActivityAt.desc(), t.id.desc()),
    index("conversations_assignee_activity_idx").on(t.workspaceId, t.assigneeUserId, t.lastActivityAt.desc(), t.id.desc()),
    index("conversations_unread_idx").on(t.workspaceId).where(sql`unread > 0`),
  ],
);

export const conversationEventKinds = ["note", "assigned", "unassigned", "closed", "reopened"] as const;
export type ConversationEventKind = (typeof conversationEventKinds)[number];

/** What happened in a conversation besides messages: internal notes, assignment, closing and reopening. */
export const conversationEvents = pgTable(
  "conversation_events",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id").notNull().references(() => conversations.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    kind: text("kind", { enum: conversationEventKinds }).notNull(),
    /** Who did it; null when the system did (a new inbound message reopens). */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** `assigned`: to whom. */
    assigneeUserId: text("assignee_user_id").references(() => users.id, { onDelete: "set null" }),
    /** `note`: its text. */
    body: text("body"),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_events_conversation_created_idx").on(t.conversationId, t.createdAt.desc(), t.id.desc())],
);

/**
 * A bulk campaign's audience as it was at launch, in chunks of up to 10,000 contacts, until the
 * chunk's `queued` messages are written (`lib/bulk/snapshot.ts`). Writing a million message rows
 * (seven indexes, foreign keys) takes far longer than freezing who receives the campaign; the launch
 * freezes the audience here and writes the first chunk's messages, the dispatch passes write the
 * rest right after, each chunk in one transaction that also deletes it. Counts read pending chunks as
 * queued (or skipped, once cancelled), so no page sees a contact disappear in between.
 */
export const bulkSnapshotChunks = pgTable(
  "bulk_snapshot_chunks",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    chunk: integer("chunk").notNull(),
    workspaceId: text("workspace_id").notNull(),
    senderId: text("sender_id").notNull(),
    templateName: text("template_name").notNull(),
    templateLanguage: text("template_language").notNull(),
    /** Message ids are this prefix plus the running number of the contact in the audience (hex). */
    idPrefix: text("id_prefix").notNull(),
    firstNumber: integer("first_number").notNull(),
    contactIds: text("contact_ids").array().notNull(),
    phoneNumbers: text("phone_numbers").array().notNull(),
    /** Per contact: 0 due now, 1 held by the daily tier, 2 skipped (a variable without a value), 3 skipped (no consent to marketing). */
    kinds: smallint("kinds").array().notNull(),
    queued: integer("queued").notNull(),
    held: integer("held").notNull(),
    skipped: integer("skipped").notNull(),
    launchedAt: at("launched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.chunk] })],
);

/**
 * Delivery statuses whose wamid was not stored yet when their webhook arrived (Meta's `sent` can
 * beat the write of the send's result). Applied and deleted once the message has that wamid;
 * pruned after 7 days.
 */
export const messageStatusInbox = pgTable(
  "message_status_inbox",
  {
    /** The channel's id of the message the status is about (column: wamid). */
    providerMessageId: text("wamid").notNull(),
    /** The workspace whose sender's app secret verified the webhook: the status applies only to its messages. */
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["sent", "delivered", "read", "failed"] }).notNull(),
    /** When the event happened (the webhook's timestamp). */
    occurredAt: at("occurred_at").notNull(),
    errorCode: text("error_code"),
    errorReason: text("error_reason"),
    receivedAt: at("received_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.providerMessageId, t.workspaceId, t.status] }), index("message_status_inbox_received_idx").on(t.receivedAt)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    campaignId: text("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status").notNull(),
    responseBody: jsonb("response_body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Send-rate lanes shared by every dispatching process: `sender:<id>` (the sender's throughput) and
 * `campaign:<id>` (a bulk campaign's send rate). Each holds the next free slot; a process reserves a
 * small block of slots with one statement and sends at those times.
 */
export const throughputLanes = pgTable("throughput_lanes", {
  key: text("key").primaryKey(),
  /** The next free slot, in microseconds since the epoch. */
  nextSlotUs: bigint("next_slot_us", { mode: "number" }).notNull(),
  updatedAt: updatedAt(),
});

/**
 * Leases on background work that must run in one place at a time, across every process: `jobs.chain`
 * (the serverless dispatch chain, lib/jobs/chain.ts). Taken and handed over with one statement each;
 * a holder that died lets its lease expire.
 */
export const engineLeases = pgTable("engine_leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: at("expires_at").notNull(),
});

/** Fixed-window request counters shared by every server instance. */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  bucket: text("bucket").primaryKey(),
  windowStart: at("window_start").notNull(),
  count: integer("count").notNull().default(0),
});

/**
 * Every call to a campaign's trigger endpoint, accepted or refused, kept 7 days so that "why did
 * this customer not get the message?" has an answer. Written in batches after the response. The
 * body is capped (`body_truncated`); no header is kept, so no credential is ever stored.
 */
export const triggerRequests = pgTable(
  "trigger_requests",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    /** No foreign key: the record outlives a deleted key and keeps its name. */
    apiKeyId: text("api_key_id"),
    keyName: text("key_name"),
    requestId: text("request_id"),
    status: integer("status").notNull(),
    dryRun: boolean("dry_run").notNull().default(false),
    /** The problem's `code` for a refusal. */
    errorCode: text("error_code"),
    /** The problem+json body of a refusal (title, detail, errors). */
    problem: jsonb("problem"),
    messageCount: integer("message_count").notNull().default(0),
    body: text("body").notNull(),
    bodyBytes: integer("body_bytes").notNull(),
    bodyTruncated: boolean("body_truncated").notNull().default(false),
    /** A signed source's kind (null: an API key call); its topic and delivery id as the sender named them. */
    sourceKind: text("source_kind", { enum: SOURCE_KINDS }),
    topic: text("topic"),
    deliveryId: text("delivery_id"),
    /** Why a verified delivery was answered 202 and not sent (a topic the campaign does not take). */
    ignoredReason: text("ignored_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("trigger_requests_campaign_created_idx").on(t.campaignId, t.createdAt.desc(), t.id.desc()),
    index("trigger_requests_created_idx").on(t.createdAt),
    // Only signed deliveries carry a topic: API key calls add nothing to this index.
    index("trigger_requests_campaign_topic_idx")
      .on(t.campaignId, t.topic, t.createdAt.desc(), t.id.desc())
      .where(sql`topic is not null`),
  ],
);

/**
 * How a trigger campaign's callers authenticate when they send no API key (lib/sources): a signed
 * source and its secret, encrypted. During a roll the previous secret stays valid until it expires.
 */
export const campaignSources = pgTable("campaign_sources", {
  campaignId: text("campaign_id").primaryKey().references(() => campaigns.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: SOURCE_KINDS }).notNull(),
  /** Empty: every topic. */
  topics: text("topics").array().notNull().default(sql`'{}'::text[]`),
  secretEncrypted: text("secret_encrypted"),
  secretCreatedAt: at("secret_created_at"),
  previousSecretEncrypted: text("previous_secret_encrypted"),
  previousSecretExpiresAt: at("previous_secret_expires_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** What an event webhook endpoint can subscribe to. `webhook.test` is only ever sent on request, to one endpoint. */
export const webhookEventTypes = [
  "message.sent",
  "message.delivered",
  "message.read",
  "message.failed",
  "message.skipped",
  "campaign.completed",
  "contact.opted_out",
  "message.received",
  "conversation.assigned",
  "conversation.closed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number] | "webhook.test";

/** A workspace's HTTPS endpoint for outbound events. The signing secret is stored encrypted: it is needed to sign. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it was switched off: by a user, or after a delivery failed for 24 hours. */
    disabledReason: text("disabled_reason"),
    disabledAt: at("disabled_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * One thing that happened, written by database triggers in the same transaction as the change (so
 * an event exists exactly when its change committed) and only while an enabled endpoint of the
 * workspace subscribes to its type. `snapshot` is the changed row as it was then; `body` is the
 * JSON payload rendered from it on the first delivery attempt, so every attempt signs the same bytes.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").$type<WebhookEventType>().notNull(),
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    body: text("body"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_workspace_created_idx").on(t.workspaceId, t.createdAt)],
);

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One event to one endpoint, with the outcome of its latest attempt; retried with backoff for 24 hours. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull().references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status", { enum: webhookDeliveryStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lockedUntil: at("locked_until"),
    lastAttemptAt: at("last_attempt_at"),
    responseStatus: integer("response_status"),
    responseMs: integer("response_ms"),
    /** The start of the receiver's answer (at most 2 KiB), or what went wrong before one came. */
    responseBody: text("response_body"),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * What the built-in test endpoint received (an endpoint whose URL is `sendstream:test-endpoint`):
 * each attempt is recorded here instead of leaving the process, with the headers and body exactly
 * as they would have been sent. The newest 50 per endpoint are kept.
 */
export const webhookTestReceipts = pgTable(
  "webhook_test_receipts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    receivedAt: at("received_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_test_receipts_endpoint_idx").on(t.endpointId, t.receivedAt.desc(), t.id.desc())],
);

/** When the workspace's owners are alerted (lib/alerts); a workspace without a row uses the defaults. */
export const alertSettings = pgTable("alert_settings", {
  workspaceId: text("workspace_id").primaryKey().references(() => workspaces.id, { onDelete: "cascade" }),
  /** A campaign alerts when at least this share (%) of its outcomes in the last 15 minutes failed… */
  failureRatePercent: integer("failure_rate_percent").notNull().default(20),
  /** …out of at least this many outcomes. */
  minMessages: integer("min_messages").notNull().default(20),
  emailOwners: boolean("email_owners").notNull().default(true),
  /** A Slack-compatible incoming-webhook URL (it is a credential: stored encrypted). */
  slackWebhookEncrypted: text("slack_webhook_encrypted"),
  updatedAt: updatedAt(),
});

export const noticeKinds = ["campaign_failure_rate", "sender_failing", "webhook_endpoint_disabled"] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/** An in-app notice for the workspace's owners: open while its condition holds, then resolved. */
export const notices = pgTable(
  "notices",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: noticeKinds }).notNull(),
    /** The campaign or the sender it is about. */
    subjectId: text("subject_id").notNull(),
    title: text("title").notNull(),
    detail: text("detail").notNull(),
    href: text("href").notNull(),
    createdAt: createdAt(),
    resolvedAt: at("resolved_at"),
    dismissedAt: at("dismissed_at"),
    emailedAt: at("emailed_at"),
    slackPostedAt: at("slack_posted_at"),
    /** Why the email or the Slack post did not go out. */
    notifyError: text("notify_error"),
  },
  (t) => [
    // One open notice per subject, however many processes evaluate at once.
    uniqueIndex("notices_open_subject_idx").on(t.workspaceId, t.kind, t.subjectId).where(sql`resolved_at is null`),
    index("notices_workspace_created_idx").on(t.workspaceId, t.createdAt.desc()),
  ],
);

/** An invitation to join a workspace: a single-use link for one email address, valid 7 days (only the token's SHA-256 is stored). */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: at("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // One open invitation per address and workspace: inviting again replaces it.
    uniqueIndex("invitations_open_email_idx").on(t.workspaceId, t.email).where(sql`accepted_at is null and revoked_at is null`),
  ],
);

// ── Journeys (lib/journeys) ─────────────────────────────────────────────────────────────────

/** Every journey document a campaign published; a run follows the version it entered. Never changed once written. */
export const journeyVersions = pgTable(
  "journey_versions",
  {
    campaignId: text("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    document: jsonb("document").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.version] })],
);

export const journeyRunStatuses = ["active", "waiting", "completed", "exited", "failed", "ended"] as const;
export type JourneyRunStatus = (typeof journeyRunStatuses)[number];

/**
 * One contact's way through one journey version, from one entry. `active`: its current step is due at
 * `due_at`; `waiting`: for an event (`wait_token`) until `due_at` (the timeout); then `completed`,
 * `exited` (an exit event), `failed` (a step could not run) or `ended` (by a member or the API).
 */
export const journeyRuns = pgTable(
  "journey_runs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    status: text("status", { enum: journeyRunStatuses }).notNull().default("active"),
    /** The step to run (active) or being waited in (waiting); null once the run is over. */
    stepId: text("step_id"),
    dueAt: at("due_at"),
    /** What a waiting run waits for: `message:<id>:read`, `event:<name>`, `campaign:<id>`, … (lib/journeys/events.ts). */
    waitToken: text("wait_token"),
    /** Tokens that end the run at once (its version's exit events). */
    exitTokens: text("exit_tokens").array().notNull().default(sql`'{}'::text[]`),
    /** What started it: the trigger's request fields, or the event's properties. */
    context: jsonb("context").$type<Record<string, unknown>>().notNull().default({}),
    /** The newest message a send step queued, for waits on its status and branches on it. */
    lastMessageId: text("last_message_id"),
    /** The contact's reply text or button payload that ended a wait, for branches. */
    lastReply: jsonb("last_reply").$type<Record<string, unknown>>(),
    /** `trigger`, `event`, `test`; a test run's waits are compressed (`time_scale`). */
    entry: text("entry").notNull().default("trigger"),
    timeScale: integer("time_scale").notNull().default(1),
    exitReason: text("exit_reason"),
    error: text("error"),
    convertedAt: at("converted_at"),
    enteredAt: at("entered_at").notNull().defaultNow(),
    endedAt: at("ended_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The runner's claim: due runs first.
    index("journey_runs_due_idx").on(t.dueAt).where(sql`status in ('active', 'waiting')`),
    // Exit and wait events find a contact's going runs.
    index("journey_runs_contact_idx").on(t.contactId).where(sql`status in ('active', 'waiting')`),
    // Waits on a message's status or reply.
    index("journey_runs_wait_token_idx").on(t.waitToken).where(sql`status = 'waiting'`),
    index("journey_runs_campaign_idx").on(t.campaignId, t.enteredAt.desc(), t.id.desc()),
    index("journey_runs_campaign_contact_idx").on(t.campaignId, t.contactId, t.enteredAt.desc()),
  ],
);

/** Each step a run took, in order: the history of a run and the counts per step. */
export const journeyRunSteps = pgTable(
  "journey_run_steps",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => journeyRuns.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id").notNull(),
    stepId: text("step_id").notNull(),
    /** `sent`, `skipped`, `waited`, `event`, `timeout`, `path:<n>`, `else`, `updated`, `ended`, `exited`, `failed`. */
    outcome: text("outcome").notNull(),
    messageId: text("message_id"),
    detail: text("detail"),
    at: at("at").notNull().defaultNow(),
  },
  (t) => [index("journey_run_steps_run_idx").on(t.runId, t.at), index("journey_run_steps_campaign_step_idx").on(t.campaignId, t.stepId, t.outcome)],
);

/** Events sent to the API (`POST /api/v1/events`): recorded even when no contact or run matches. */
export const journeyEvents = pgTable(
  "journey_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    phoneNumber: text("phone_number"),
    properties: jsonb("properties").$type<Record<string, unknown>>().notNull().default({}),
    runsStarted: integer("runs_started").notNull().default(0),
    runsEnded: integer("runs_ended").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("journey_events_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc())],
);
