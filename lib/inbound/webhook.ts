// Provider webhooks, whatever the channel: the subscription handshake, the signature check against
// the secrets of the senders a delivery names, and applying what the channel parsed out of it
// (status updates, inbound messages). The channel (lib/channels) knows the wire format; route
// handlers stay thin; everything here takes a database handle.
import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { getChannel, type ChannelName, type HeaderSource, type ParsedWebhookChange } from "@/lib/channels";
import { decryptSecret } from "@/lib/crypto/secrets";
import { constantTimeEqual } from "@/lib/crypto/constant-time";
import { dispatchSoon } from "@/lib/messaging";
import { recordInboundMessages } from "./record";
import { recordStatusReports, type AddressedStatusReport } from "@/lib/outbox/statuses";
import { templateAccount } from "@/lib/senders/service";
import { applyTemplateStatus } from "@/lib/templates/review";
import { holdCampaignsOfBlockedTemplates } from "@/lib/bulk/template-hold";

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

export type WebhookOutcome =
  | { ok: true; applied: number; ignored: number; pending: number; replies: number; inbound: number; templates: number }
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
      for (const workspaceId of workspaceIds) reports.push({ providerMessageId, workspaceId, report });
    }
  }
  const outcome = await recordStatusReports(db, reports);
  ignored += outcome.ignored;

  let replies = 0;
  let stored = 0;
  let autoReplies = 0;
  for (const change of changes) {
    if (!change.address || change.inbound.length === 0) continue;
    // An inbound message belongs to the sender whose number received it: the number, never the account.
    for (const sender of verified.filter((candidate) => candidate.address === change.address)) {
      const recorded = await recordInboundMessages(db, { workspaceId: sender.workspaceId, senderId: sender.id }, change.inbound);
      stored += recorded.stored;
      autoReplies += recorded.autoReplies;
      replies += recorded.messages.filter((message) => message.consent.action !== "none").length;
    }
  }
  // Keyword auto-replies leave at once, not at the next pass.
  if (autoReplies > 0) dispatchSoon();
  // A template decision is about the business account: every verified workspace with a number of it.
  let templateChanges = 0;
  for (const change of changes) {
    if (!change.account || change.templateStatuses.length === 0) continue;
    const workspaces = new Map(verified.filter((sender) => sender.account === change.account).map((sender) => [sender.workspaceId, sender]));
    for (const [workspaceId, sender] of workspaces) {
      const account = templateAccount({ provider: channelName, wabaId: sender.account, workspaceId });
      for (const templateStatus of change.templateStatuses) {
        const changed = await applyTemplateStatus(db, workspaceId, account, templateStatus);
        templateChanges += changed.length;
        await holdCampaignsOfBlockedTemplates(db, workspaceId, changed);
      }
    }
  }
  return { ok: true, applied: outcome.applied, ignored, pending: outcome.pending, replies, inbound: stored, templates: templateChanges };
}
