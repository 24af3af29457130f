// Provider webhooks, whatever the channel: the subscription handshake, the signature check against
// the secrets of the senders a delivery names, and applying what the channel parsed out of it
// (status updates, inbound messages). The channel (lib/channels) knows the wire format; route
// handlers stay thin; everything here takes a database handle.
import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders, workspaces } from "@/db/schema";
import { getChannel, type ChannelName, type HeaderSource, type InboundMessage, type ParsedWebhookChange } from "@/lib/channels";
import { applyConsentReply, type InboundReply, type ReplyOutcome } from "@/lib/contacts/opt-out";
import { isE164PhoneNumber } from "@/lib/contacts/phone";
import { decryptSecret } from "@/lib/crypto/secrets";
import { constantTimeEqual } from "@/lib/crypto/constant-time";
import { recordStatusReports, type AddressedStatusReport } from "@/lib/outbox/statuses";

/** Meta sends at most 3 MB; a little headroom. */
export const WEBHOOK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** Providers batch far fewer statuses per request; more is refused (413) rather than held up. */
export const WEBHOOK_MAX_STATUSES = 10_000;

function safeDecrypt(sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return decryptSecret(sealed);
  } catch {
    return null;
  }
}

function webhookOf(channelName: ChannelName) {
  const webhook = getChannel(channelName).webhook;
  if (!webhook) throw new Error(`The ${channelName} channel receives no webhooks.`);
  return webhook;
}

/** The header a channel's deliveries are signed in (for error messages). */
export function webhookSignatureHeader(channelName: ChannelName): string {
  return webhookOf(channelName).signatureHeader;
}

/**
 * GET handshake: the challenge to echo when the query is the channel's subscription handshake and
 * its token is the verify token of one of the channel's senders; null otherwise.
 */
export async function answerWebhookHandshake(db: Executor, channelName: ChannelName, query: URLSearchParams): Promise<string | null> {
  const handshake = webhookOf(channelName).handshake(query);
  if (!handshake || !(await isKnownVerifyToken(db, channelName, handshake.token))) return null;
  return handshake.challenge;
}

/** True when `token` is the verify token of some sender of the channel. */
export async function isKnownVerifyToken(db: Executor, channelName: ChannelName, token: string): Promise<boolean> {
  if (!token) return false;
  const rows = await db
    .select({ sealed: senders.verifyTokenEncrypted })
    .from(senders)
    .where(and(eq(senders.provider, channelName), isNotNull(senders.verifyTokenEncrypted)));
  let found = false;
  for (const row of rows) {
    const stored = safeDecrypt(row.sealed);
    // No early exit: every candidate is compared.
    if (stored !== null && constantTimeEqual(stored, token)) found = true;
  }
  return found;
}

/** The consent reply a text-bearing inbound message stands for (typed text, a quick-reply button, an interactive reply); null for others. */
export function consentReplyOf(message: InboundMessage): InboundReply | null {
  if (!isE164PhoneNumber(message.from)) return null;
  let text: string | null = null;
  if (message.kind === "text" || message.kind === "interactive") text = message.text;
  else if (message.kind === "button") text = message.text ?? message.payload;
  if (text === null) return null;
  return { messageId: message.providerMessageId, phone: message.from, text, at: message.at };
}

/**
 * Applies inbound replies to the contacts of each workspace (its consent keywords: STOP,
 * UNSUBSCRIBE, its own keywords, START). The webhook and the sandbox's simulated reply both use it.
 */
export async function applyInboundMessages(db: Executor, workspaceIds: string[], inbound: InboundReply[]): Promise<ReplyOutcome[]> {
  if (workspaceIds.length === 0 || inbound.length === 0) return [];
  const rows = await db.select({ id: workspaces.id, keywords: workspaces.optOutKeywords }).from(workspaces).where(inArray(workspaces.id, workspaceIds));
  const outcomes: ReplyOutcome[] = [];
  for (const workspace of rows) {
    for (const reply of inbound) outcomes.push(await applyConsentReply(db, workspace.id, reply, workspace.keywords ?? []));
  }
  return outcomes;
}

/** A sender that received inbound messages: where they are stored and whose consent they change. */
export interface InboundRecipient {
  workspaceId: string;
  senderId: string;
}

/**
 * What happens to the inbound messages a number received (webhook deliveries and the sandbox's
 * simulated replies alike): today, the text-bearing ones are applied as consent replies. The one
 * place inbound messages of every channel go through.
 */
export async function receiveInboundMessages(db: Executor, recipients: InboundRecipient[], inbound: InboundMessage[]): Promise<ReplyOutcome[]> {
  const replies = inbound.map(consentReplyOf).filter((reply): reply is InboundReply => reply !== null);
  const workspaceIds = [...new Set(recipients.map((recipient) => recipient.workspaceId))];
  return applyInboundMessages(db, workspaceIds, replies);
}

export type WebhookOutcome =
  | { ok: true; applied: number; ignored: number; pending: number; replies: number }
  | { ok: false; reason: "unsigned" | "bad_signature" }
  | { ok: false; reason: "too_many_statuses"; statuses: number };

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

/**
 * Verifies a POSTed webhook of a channel and applies it. The body is signed with the app secret of
 * the sender that owns the number (or account) it names; statuses are applied only to messages of
 * the workspaces whose secret verified it, so one tenant cannot forge another's.
 */
export async function handleWebhookDelivery(
  db: Executor,
  channelName: ChannelName,
  input: { raw: Uint8Array; body: unknown; headers: HeaderSource; receivedAt?: Date },
): Promise<WebhookOutcome> {
  const webhook = webhookOf(channelName);
  const signature = webhook.signatureOf(input.headers);
  if (!signature) return { ok: false, reason: "unsigned" };
  const changes: ParsedWebhookChange[] = webhook.parse(input.body, input.receivedAt ?? new Date());
  const addresses = distinct(changes.map((c) => c.address));
  const accounts = distinct(changes.map((c) => c.account));
  if (addresses.length === 0 && accounts.length === 0) return { ok: false, reason: "bad_signature" };
  const candidates = await db
    .select({ id: senders.id, workspaceId: senders.workspaceId, address: senders.phoneNumberId, account: senders.wabaId, appSecret: senders.appSecretEncrypted })
    .from(senders)
    .where(
      and(
        eq(senders.provider, channelName),
        isNotNull(senders.appSecretEncrypted),
        or(addresses.length ? inArray(senders.phoneNumberId, addresses) : undefined, accounts.length ? inArray(senders.wabaId, accounts) : undefined),
      ),
    );
  const verified = candidates.filter((candidate) => {
    const secret = safeDecrypt(candidate.appSecret);
    return secret !== null && webhook.verifySignature(input.raw, signature, secret);
  });
  if (verified.length === 0) return { ok: false, reason: "bad_signature" };
  const statusCount = changes.reduce((sum, change) => sum + change.statuses.length, 0);
  if (statusCount > WEBHOOK_MAX_STATUSES) return { ok: false, reason: "too_many_statuses", statuses: statusCount };

  // Every status of the request in one statement; those for messages not stored yet are held.
  const reports: AddressedStatusReport[] = [];
  let ignored = 0;
  for (const change of changes) {
    const workspaceIds = new Set(
      verified.filter((sender) => (change.address ? sender.address === change.address : sender.account === change.account)).map((sender) => sender.workspaceId),
    );
    if (workspaceIds.size === 0) ignored += change.statuses.length;
    for (const { providerMessageId, status, at, errorCode, errorReason } of change.statuses) {
      const report = status === "failed" ? { status, at, errorCode: errorCode ?? null, errorReason: errorReason ?? null } : { status, at };
      for (const workspaceId of workspaceIds) reports.push({ wamid: providerMessageId, workspaceId, report });
    }
  }
  const outcome = await recordStatusReports(db, reports);
  ignored += outcome.ignored;

  let replies = 0;
  for (const change of changes) {
    // An inbound message belongs to the sender whose number received it: the number, never the account.
    if (change.address && change.inbound.length > 0) {
      const recipients = verified.filter((sender) => sender.address === change.address).map((sender) => ({ workspaceId: sender.workspaceId, senderId: sender.id }));
      const outcomes = await receiveInboundMessages(db, recipients, change.inbound);
      replies += outcomes.filter((outcome) => outcome.action !== "none").length;
    }
  }
  return { ok: true, applied: outcome.applied, ignored, pending: outcome.pending, replies };
}
