// A workspace's sending identities: the sandbox or WhatsApp Cloud API numbers, secrets sealed at
// rest. One of them is the workspace's default, which campaigns use when they name none; the
// collection (create, rename, set default, delete) is in ./collection.ts, health in ./health.ts.
import { and, asc, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { messages, senders } from "@/db/schema";
import { ChannelRequestError, getChannel, type ChannelName, type ChannelRequestFailure } from "@/lib/channels";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { decryptSecret, encryptSecret, maskSecret } from "@/lib/crypto/secrets";
import { newId } from "@/lib/crypto/random";
import { notFound, validationFailed, type FieldError } from "@/lib/http/errors";
import { messagingAccount, recordSenderAccount } from "./messaging-account";
import { parseMessagingTier } from "./tier";
import { senderConnectionSchema, senderSettingsSchema, type SenderConnectionInput, type SenderSettingsInput } from "./schemas";

export type SenderRow = typeof senders.$inferSelect;
export type SenderStatus = SenderRow["status"];

export const SANDBOX_TIER_LABEL = "Sandbox — unlimited";

/** What the settings page may show (owners and admins): secrets only as masks. */
export interface SenderView {
  id: string;
  name: string;
  isDefault: boolean;
  provider: ChannelName;
  phoneNumberId: string | null;
  wabaId: string | null;
  displayPhoneNumber: string | null;
  accessToken: string | null;
  appSecret: string | null;
  verifyToken: string | null;
  throughputPerSecond: number;
  messagingTier: string | null;
  messagingTierLabel: string;
  qualityRating: string | null;
  status: SenderStatus;
  configured: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SenderCredentials {
  id: string;
  provider: ChannelName;
  phoneNumberId: string | null;
  wabaId: string | null;
  accessToken: string | null;
  appSecret: string | null;
  verifyToken: string | null;
  throughputPerSecond: number;
}

/**
 * The workspace's default sender, created as the sandbox when the workspace has none. A workspace
 * whose senders have no default (rows written before defaults existed) gets its oldest one.
 */
export async function getSenderRow(db: Executor, workspaceId: string): Promise<SenderRow> {
  const find = async () =>
    (await db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).orderBy(desc(senders.isDefault), asc(senders.createdAt)).limit(1))[0];
  const row = await find();
  if (row) return row;
  await db
    .insert(senders)
    .values({ id: newId("snd"), workspaceId, provider: "sandbox", name: "Sandbox", isDefault: true, status: "connected" })
    .onConflictDoNothing();
  const created = await find();
  if (!created) throw new Error(`Could not create the sender of workspace ${workspaceId}.`);
  return created;
}

/** A sender of the workspace by id; 404 for an unknown id or another workspace's sender. */
export async function getSenderRowById(db: Executor, workspaceId: string, id: string): Promise<SenderRow> {
  const [row] = await db.select().from(senders).where(and(eq(senders.workspaceId, workspaceId), eq(senders.id, id))).limit(1);
  if (!row) throw notFound(`No sender ${id} in this workspace.`);
  return row;
}

/** The sender a campaign sends through: the one it names, or the workspace's default. */
export async function campaignSenderRow(db: Executor, workspaceId: string, senderId: string | null | undefined): Promise<SenderRow> {
  return senderId ? getSenderRowById(db, workspaceId, senderId) : getSenderRow(db, workspaceId);
}

/** Every sender of the workspace, the default first, then oldest first (the default is created when there is none). */
export async function listSenderRows(db: Executor, workspaceId: string): Promise<SenderRow[]> {
  await getSenderRow(db, workspaceId);
  return db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).orderBy(desc(senders.isDefault), asc(senders.createdAt), asc(senders.id));
}

/** The workspace's sandbox sender (the default one when it is the sandbox), or null when every sender is a WhatsApp number. */
export async function findSandboxSender(db: Executor, workspaceId: string): Promise<SenderRow | null> {
  return (await listSenderRows(db, workspaceId)).find((row) => row.provider === "sandbox") ?? null;
}

/** A WhatsApp sender is usable once it has its ids and an access token; the sandbox always is. */
export function isSenderConfigured(row: Pick<SenderRow, "provider" | "phoneNumberId" | "wabaId" | "accessTokenEncrypted">): boolean {
  return row.provider === "sandbox" || Boolean(row.phoneNumberId && row.wabaId && row.accessTokenEncrypted);
}

export function messagingTierLabel(row: Pick<SenderRow, "provider" | "messagingTier">): string {
  if (row.provider === "sandbox") return SANDBOX_TIER_LABEL;
  return getChannel(row.provider).describeMessagingLimit(row.messagingTier) ?? "Unknown — run Test connection";
}

export function toSenderView(row: SenderRow): SenderView {
  const mask = (sealed: string | null) => (sealed ? safeMask(sealed) : null);
  return {
    id: row.id,
    name: row.name,
    isDefault: row.isDefault,
    provider: row.provider,
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    displayPhoneNumber: row.displayPhoneNumber,
    accessToken: mask(row.accessTokenEncrypted),
    appSecret: mask(row.appSecretEncrypted),
    verifyToken: mask(row.verifyTokenEncrypted),
    throughputPerSecond: row.throughputPerSecond,
    messagingTier: row.messagingTier,
    messagingTierLabel: messagingTierLabel(row),
    qualityRating: row.qualityRating,
    status: row.status,
    configured: isSenderConfigured(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function safeMask(sealed: string): string {
  try {
    return maskSecret(decryptSecret(sealed));
  } catch {
    return "••••";
  }
}

/** A sender's view (the default one without an id). */
export async function getSender(db: Executor, workspaceId: string, senderId?: string): Promise<SenderView> {
  return toSenderView(await campaignSenderRow(db, workspaceId, senderId));
}

/** Decrypted credentials, for sending and webhook verification only; never return these to a client. */
export async function loadSenderCredentials(db: Executor, workspaceId: string, senderId?: string): Promise<SenderCredentials> {
  const row = await campaignSenderRow(db, workspaceId, senderId);
  const open = (sealed: string | null) => (sealed ? decryptSecret(sealed) : null);
  return {
    id: row.id,
    provider: row.provider,
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    accessToken: open(row.accessTokenEncrypted),
    appSecret: open(row.appSecretEncrypted),
    verifyToken: open(row.verifyTokenEncrypted),
    throughputPerSecond: row.throughputPerSecond,
  };
}

/**
 * Saves a sender's settings (the default sender's without `senderId`); the audit row names the
 * fields that changed (a secret field only as "replaced", never its value). Switching between the
 * sandbox and WhatsApp keeps the credentials, so switching back does not mean entering them again.
 * A different provider or phone number is a different sender: see `replaceSenderIdentity`.
 */
export async function updateSenderSettings(
  db: Executor,
  workspaceId: string,
  input: SenderSettingsInput,
  actor: AuditActor = SYSTEM_ACTOR,
  options: { senderId?: string } = {},
): Promise<SenderView> {
  const settings = senderSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const row = await campaignSenderRow(tx, workspaceId, options.senderId);
    const audit = async (changed: string[], replaced: SenderReplacement | null) => {
      if (changed.length === 0) return;
      const metadata = replaced ? { changed, replacedSenderId: row.id, failedMessages: replaced.failedMessages } : { changed };
      await recordAudit(tx, { workspaceId, actor, action: "sender.settings_changed", targetType: "sender", targetId: replaced?.id ?? row.id, metadata });
    };
    if (settings.provider === "sandbox") {
      const replaced = row.provider !== "sandbox" ? await replaceSenderIdentity(tx, row, { provider: "sandbox", phoneNumberId: row.phoneNumberId }) : null;
      const [updated] = await tx
        .update(senders)
        .set({ provider: "sandbox", status: "connected", updatedAt: new Date() })
        .where(eq(senders.id, replaced?.id ?? row.id))
        .returning();
      if (updated) await recordSenderAccount(tx, updated);
      await audit(row.provider === "sandbox" ? [] : ["provider"], replaced);
      return toSenderView(updated ?? row);
    }
    const errors: FieldError[] = [];
    if (!settings.accessToken && !row.accessTokenEncrypted) {
      errors.push({ path: "accessToken", code: "required", message: "Paste the access token of your system user." });
    }
    if (errors.length > 0) throw validationFailed(errors);
    const numberChanged = row.phoneNumberId !== settings.phoneNumberId;
    const credentialsChanged = numberChanged || row.provider !== "whatsapp" || row.wabaId !== settings.wabaId || Boolean(settings.accessToken);
    const replaced =
      row.provider !== "whatsapp" || numberChanged ? await replaceSenderIdentity(tx, row, { provider: "whatsapp", phoneNumberId: settings.phoneNumberId }) : null;
    const [updated] = await tx
      .update(senders)
      .set({
        provider: "whatsapp",
        phoneNumberId: settings.phoneNumberId,
        wabaId: settings.wabaId,
        ...(settings.accessToken ? { accessTokenEncrypted: encryptSecret(settings.accessToken) } : {}),
        ...(settings.appSecret ? { appSecretEncrypted: encryptSecret(settings.appSecret) } : {}),
        ...(settings.verifyToken ? { verifyTokenEncrypted: encryptSecret(settings.verifyToken) } : {}),
        // A different number has its own name and limits: forget the old ones until the next test.
        ...(numberChanged ? { displayPhoneNumber: null, messagingTier: null, qualityRating: null, throughputPerSecond: getChannel("whatsapp").limits.defaultThroughputPerSecond } : {}),
        // New credentials are unproven until the next connection test.
        ...(credentialsChanged ? { status: "untested" as const } : {}),
        updatedAt: new Date(),
      })
      .where(eq(senders.id, replaced?.id ?? row.id))
      .returning();
    // Its sends count for the business account's daily limit, also after a later re-save replaces the id.
    if (updated) await recordSenderAccount(tx, updated);
    await audit([
      ...(row.provider !== "whatsapp" ? ["provider"] : []),
      ...(numberChanged ? ["phoneNumberId"] : []),
      ...(row.wabaId !== settings.wabaId ? ["wabaId"] : []),
      ...(settings.accessToken ? ["accessToken"] : []),
      ...(settings.appSecret ? ["appSecret"] : []),
      ...(settings.verifyToken ? ["verifyToken"] : []),
    ], replaced);
    return toSenderView(updated ?? row);
  });
}

export type ConnectionTestResult =
  | {
      ok: true;
      displayPhoneNumber: string | null;
      verifiedName: string | null;
      qualityRating: string | null;
      throughputLevel: string | null;
      throughputPerSecond: number;
      messagingTier: string | null;
      messagingTierLabel: string;
    }
  | {
      ok: false;
      error: ChannelRequestFailure;
    };

/**
 * Asks the Graph API about the phone number. When it is the stored number of the sender (the
 * default one without `senderId`), its display number, throughput, quality, status and messaging
 * limit are saved; the limit is the business account's, so its other numbers in the workspace get
 * it too.
 */
export async function testSenderConnection(
  db: Executor,
  workspaceId: string,
  input: SenderConnectionInput,
  options: { senderId?: string } = {},
): Promise<ConnectionTestResult> {
  const { phoneNumberId, accessToken: typedToken } = senderConnectionSchema.parse(input);
  const row = await campaignSenderRow(db, workspaceId, options.senderId);
  const accessToken = typedToken ?? (row.accessTokenEncrypted ? decryptSecret(row.accessTokenEncrypted) : undefined);
  if (!accessToken) {
    throw validationFailed([{ path: "accessToken", code: "required", message: "Paste the access token to test the connection." }]);
  }
  try {
    const channel = getChannel("whatsapp");
    const info = await channel.numberInfo(phoneNumberId, { accessToken });
    const messagingTier = parseMessagingTier(info.messagingLimit);
    if (row.phoneNumberId === phoneNumberId) {
      await db
        .update(senders)
        .set({
          displayPhoneNumber: info.displayPhoneNumber,
          throughputPerSecond: info.throughputPerSecond,
          messagingTier,
          qualityRating: info.qualityRating,
          status: "connected",
          updatedAt: new Date(),
        })
        .where(eq(senders.id, row.id));
      if (messagingTier) await shareMessagingTier(db, row, messagingTier);
    }
    return {
      ok: true,
      displayPhoneNumber: info.displayPhoneNumber,
      verifiedName: info.verifiedName,
      qualityRating: info.qualityRating,
      throughputLevel: info.throughputLevel,
      throughputPerSecond: info.throughputPerSecond,
      messagingTier,
      messagingTierLabel: channel.describeMessagingLimit(messagingTier) ?? "Not reported",
    };
  } catch (error) {
    if (!(error instanceof ChannelRequestError)) throw error;
    if (row.phoneNumberId === phoneNumberId && !typedToken) {
      await db.update(senders).set({ status: "disconnected", updatedAt: new Date() }).where(eq(senders.id, row.id));
    }
    return { ok: false, error: error.failure };
  }
}

/**
 * The daily messaging limit is the business account's: every number of the account in the
 * workspace shows (and is guarded by) the same one.
 */
export async function shareMessagingTier(db: Executor, row: Pick<SenderRow, "id" | "workspaceId" | "provider" | "wabaId">, tier: string | null): Promise<void> {
  if (row.provider !== "whatsapp" || !row.wabaId) return;
  await db
    .update(senders)
    .set({ messagingTier: tier })
    .where(and(eq(senders.workspaceId, row.workspaceId), eq(senders.provider, "whatsapp"), eq(senders.wabaId, row.wabaId)));
}

/** The account whose templates a sender may send: `waba:<id>`, or `sandbox` for the sandbox. */
export function templateAccount(row: Pick<SenderRow, "provider" | "wabaId" | "workspaceId">): string {
  return row.provider === "sandbox" ? "sandbox" : row.wabaId ? messagingAccount(row) : "";
}

export const SENDER_CHANGED_CODE = "sender_changed";

interface SenderReplacement {
  /** The sender's new id. */
  id: string;
  /** Queued messages of the old sender, now failed with `sender_changed`. */
  failedMessages: number;
}

function describeIdentity(identity: { provider: string; phoneNumberId: string | null }): string {
  if (identity.provider === "sandbox") return "the sandbox";
  return identity.phoneNumberId ? `WhatsApp number ${identity.phoneNumberId}` : "WhatsApp";
}

/**
 * A provider or phone-number change makes a different sender: the workspace's sender row gets a
 * new id (so every reader of "the workspace's sender" sees the new one), and messages keep the id
 * they were queued with. Queued messages of the old id are failed here with a reason naming the
 * change; ones a dispatcher holds at this moment go out through the sender they were claimed with,
 * or are failed by it when they come back. Never completed by the new provider.
 */
async function replaceSenderIdentity(
  tx: Executor,
  row: SenderRow,
  next: { provider: ChannelName; phoneNumberId: string | null },
): Promise<SenderReplacement> {
  const id = newId("snd");
  // The old id's sends keep counting for its account's daily messaging limit.
  await recordSenderAccount(tx, row);
  await tx.update(senders).set({ id, updatedAt: new Date() }).where(eq(senders.id, row.id));
  const reason =
    `The sender changed from ${describeIdentity(row)} to ${describeIdentity(next)} after this message was queued, ` +
    "so it was not sent (it is never sent by another sender). Resend it from the logs.";
  const now = new Date();
  const failed = await tx
    .update(messages)
    .set({ status: "failed", errorCode: SENDER_CHANGED_CODE, errorReason: reason, failedAt: now, lockedUntil: null, updatedAt: now })
    .where(and(eq(messages.workspaceId, row.workspaceId), eq(messages.senderId, row.id), eq(messages.status, "queued")))
    .returning({ id: messages.id });
  return { id, failedMessages: failed.length };
}

