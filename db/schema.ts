import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  /** Null for users who only sign in through an OAuth provider. */
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
});

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "member"] }).notNull().default("owner"),
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

/** One sending identity per workspace: the built-in sandbox or a WhatsApp Cloud API number. */
export const senders = pgTable("senders", {
  id: text("id").primaryKey(),
  workspaceId: text("workspace_id")
    .notNull()
    .unique()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["sandbox", "whatsapp"] }).notNull().default("sandbox"),
  phoneNumberId: text("phone_number_id"),
  wabaId: text("waba_id"),
  displayPhoneNumber: text("display_phone_number"),
  /** AES-256-GCM ciphertexts (see lib/crypto). */
  accessTokenEncrypted: text("access_token_encrypted"),
  appSecretEncrypted: text("app_secret_encrypted"),
  verifyTokenEncrypted: text("verify_token_encrypted"),
  throughputPerSecond: integer("throughput_per_second").notNull().default(80),
  messagingTier: text("messaging_tier"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    externalId: text("external_id"),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category").notNull(),
    status: text("status").notNull(),
    parameterFormat: text("parameter_format", { enum: ["POSITIONAL", "NAMED"] }).notNull().default("POSITIONAL"),
    components: jsonb("components").$type<unknown[]>().notNull().default([]),
    syncedAt: at("synced_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("templates_workspace_name_language_idx").on(t.workspaceId, t.name, t.language)],
);

export const campaigns = pgTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["trigger", "bulk"] }).notNull().default("trigger"),
    status: text("status", { enum: ["draft", "active", "paused", "archived"] }).notNull().default("draft"),
    /** Trigger node: request field → contact attribute mapping with types and required flags. */
    triggerConfig: jsonb("trigger_config").$type<Record<string, unknown>>().notNull().default({}),
    /** Message action: template and variable → attribute mapping with fallbacks. */
    messageConfig: jsonb("message_config").$type<Record<string, unknown>>().notNull().default({}),
    templateId: text("template_id").references(() => templates.id, { onDelete: "set null" }),
    /** Trigger requests allowed per minute for this campaign. */
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(600),
    version: integer("version").notNull().default(1),
    deployedAt: at("deployed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("campaigns_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    name: text("name"),
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("contacts_workspace_phone_idx").on(t.workspaceId, t.phoneNumber)],
);

export const messageStatuses = ["queued", "sending", "sent", "delivered", "read", "failed"] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    senderId: text("sender_id").references(() => senders.id, { onDelete: "set null" }),
    apiKeyId: text("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    phoneNumber: text("phone_number").notNull(),
    templateName: text("template_name").notNull(),
    templateLanguage: text("template_language").notNull(),
    /** The message as the recipient reads it, for logs and export. */
    renderedText: text("rendered_text").notNull(),
    /** Provider-ready template components with their parameters. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: messageStatuses }).notNull().default("queued"),
    wamid: text("wamid"),
    errorCode: text("error_code"),
    errorReason: text("error_reason"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lockedUntil: at("locked_until"),
    sentAt: at("sent_at"),
    deliveredAt: at("delivered_at"),
    readAt: at("read_at"),
    failedAt: at("failed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("messages_campaign_created_idx").on(t.campaignId, t.createdAt.desc(), t.id.desc()),
    index("messages_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index("messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status in ('queued', 'sending')`),
    uniqueIndex("messages_wamid_idx").on(t.wamid),
  ],
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

/** Fixed-window request counters shared by every server instance. */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  bucket: text("bucket").primaryKey(),
  windowStart: at("window_start").notNull(),
  count: integer("count").notNull().default(0),
});
