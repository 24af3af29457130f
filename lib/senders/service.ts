// The workspace's sending identity: the sandbox or a WhatsApp Cloud API number, secrets sealed at rest.
import { and, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { messages, senders } from "@/db/schema";
import { ChannelRequestError, getChannel, type ChannelName, type ChannelRequestFailure } from "@/lib/channels";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { decryptSecret, encryptSecret, maskSecret } from "@/lib/crypto/secrets";
import { newId } from "@/lib/crypto/random";
import { validationFailed, type FieldError } from "@/lib/http/errors";
import { recordSenderAccount } from "./messaging-account";
import { parseMessagingTier } from "./tier";
import { senderConnectionSchema, senderSettingsSchema, type SenderConnectionInput, type SenderSettingsInput } from "./schemas";

type SenderRow = typeof senders.$inferSelect;

export const SANDBOX_TIER_LABEL = "Sandbox — unlimited";

/** What the settings page and APIs may show: secrets only as masks. */
export interface SenderView {
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
  configured: boolean;
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

/** The workspace's sender row, created as a sandbox sender when missing. */
export async function getSenderRow(db: Executor, workspaceId: string): Promise<SenderRow> {
  const [row] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).limit(1);
  if (row) return row;
  await db.insert(senders).values({ id: newId("snd"), workspaceId, provider: "sandbox" }).onConflictDoNothing({ target: senders.workspaceId });
  const [created] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).limit(1);
  if (!created) throw new Error(`Could not create the sender of workspace ${workspaceId}.`);
  return created;
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
    configured: isSenderConfigured(row),
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

export async function getSender(db: Executor, workspaceId: string): Promise<SenderView> {
  return toSenderView(await getSenderRow(db, workspaceId));
}

/** Decrypted credentials, for sending and webhook verification only; never return these to a client. */
export async function loadSenderCredentials(db: Executor, workspaceId: string): Promise<SenderCredentials> {
  const row = await getSenderRow(db, workspaceId);
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
 * Saves the sender settings; the audit row names the fields that changed (a secret field only as
 * "replaced", never its value). Switching between the sandbox and WhatsApp keeps the credentials,
 * so switching back does not mean entering them again. A different provider or phone number is a
 * different sender: see `replaceSenderIdentity`.
 */
export async function updateSenderSettings(
  db: Executor,
  workspaceId: string,
  input: SenderSettingsInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<SenderView> {
  const settings = senderSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const row = await getSenderRow(tx, workspaceId);
    const audit = async (changed: string[], replaced: SenderReplacement | null) => {
      if (changed.length === 0) return;
      const metadata = replaced ? { changed, replacedSenderId: row.id, failedMessages: replaced.failedMessages } : { changed };
      await recordAudit(tx, { workspaceId, actor, action: "sender.settings_changed", targetType: "sender", targetId: replaced?.id ?? row.id, metadata });
    };
    if (settings.provider === "sandbox") {
      const replaced = row.provider !== "sandbox" ? await replaceSenderIdentity(tx, row, { provider: "sandbox", phoneNumberId: row.phoneNumberId }) : null;
      const [updated] = await tx
        .update(senders)
        .set({ provider: "sandbox", updatedAt: new Date() })
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
        ...(numberChanged ? { displayPhoneNumber: null, messagingTier: null, throughputPerSecond: getChannel("whatsapp").limits.defaultThroughputPerSecond } : {}),
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
 * Asks the Graph API about the phone number. When it is the stored number, its display number,
 * throughput and messaging tier are saved for the deploy dialog.
 */
export async function testSenderConnection(db: Executor, workspaceId: string, input: SenderConnectionInput): Promise<ConnectionTestResult> {
  const { phoneNumberId, accessToken: typedToken } = senderConnectionSchema.parse(input);
  const row = await getSenderRow(db, workspaceId);
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
          updatedAt: new Date(),
        })
        .where(eq(senders.id, row.id));
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
    return { ok: false, error: error.failure };
  }
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

/**
 * Error codes that mean the sender itself cannot send (credentials, permissions, account,
 * reachability): its channel says which of its codes are; a send whose outcome is unknown is too.
 */
const isSenderLevel = (provider: ChannelName, code: string | null) =>
  code !== null && (code === "outcome_unknown" || getChannel(provider).senderTrouble(code) !== null);

export interface SenderHealth {
  senderId: string;
  /**
   * The latest send attempts of the current sender (at least the last two, or the only one so far;
   * retries waiting included) failed for a reason of the sender (token, permissions, account,
   * reachability).
   */
  failing: boolean;
  reason: string | null;
  /** The error code of the latest such failure. */
  code: string | null;
  /** When the run of such failures began. */
  since: string | null;
  /** Messages queued or being sent by the current sender: what a provider or number change would fail. */
  pendingMessages: number;
}

/** How many of the latest sends are looked at. */
const HEALTH_WINDOW = 5;
/** Latest attempts in a row that must have failed for a reason of the sender. */
const FAILING_RUN = 2;

/**
 * Cheap health of the workspace's current sender, for a banner and the switch confirmation. A
 * message waiting for a retry after a sender-level error counts as a failed attempt: that is how a
 * sender that cannot reach WhatsApp looks while its messages are still queued.
 */
export async function senderHealth(db: Executor, workspaceId: string): Promise<SenderHealth> {
  const sender = await getSenderRow(db, workspaceId);
  const [recent, [pending]] = await Promise.all([
    db
      .select({
        status: messages.status,
        errorCode: messages.errorCode,
        errorReason: messages.errorReason,
        failedAt: messages.failedAt,
        updatedAt: messages.updatedAt,
      })
      .from(messages)
      .where(
        and(
          eq(messages.workspaceId, workspaceId),
          eq(messages.senderId, sender.id),
          or(
            isNotNull(messages.sentAt),
            isNotNull(messages.failedAt),
            and(inArray(messages.status, ["queued", "sending"]), isNotNull(messages.errorCode), gt(messages.attempts, 0)),
          ),
        ),
      )
      .orderBy(desc(messages.createdAt))
      .limit(HEALTH_WINDOW),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.workspaceId, workspaceId), eq(messages.senderId, sender.id), inArray(messages.status, ["queued", "sending"]))),
  ]);
  const failedAttempt = (m: (typeof recent)[number]) =>
    (m.status === "failed" || m.status === "queued" || m.status === "sending") && isSenderLevel(sender.provider, m.errorCode);
  // The run of such failures up to the latest attempt: two in a row (or the only attempt so far).
  const firstGood = recent.findIndex((m) => !failedAttempt(m));
  const run = firstGood === -1 ? recent : recent.slice(0, firstGood);
  const failing = run.length > 0 && run.length >= Math.min(FAILING_RUN, recent.length);
  const since = failing
    ? run.reduce<Date | null>((oldest, m) => {
        const at = m.failedAt ?? m.updatedAt;
        return !oldest || at < oldest ? at : oldest;
      }, null)
    : null;
  return {
    senderId: sender.id,
    failing,
    reason: failing ? (recent[0]!.errorReason ?? null) : null,
    code: failing ? (recent[0]!.errorCode ?? null) : null,
    since: since?.toISOString() ?? null,
    pendingMessages: Number(pending?.count ?? 0),
  };
}
