// WhatsApp webhooks: the verify-token handshake, signature verification, applying status updates
// and storing inbound messages (lib/inbound: consent keywords, context links). Route handlers stay
// thin; everything here takes a database handle.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import type { InboundMessage } from "@/lib/channels/types";
import { decryptSecret } from "@/lib/crypto/secrets";
import { constantTimeEqual } from "@/lib/crypto/constant-time";
import { recordInboundMessages } from "@/lib/inbound/record";
import { reasonForCode } from "./errors";
import { recordStatusReports } from "./inbox";
import { eventTime, parseInboundMessages } from "./webhook-inbound";
import { isReportedStatus, type AddressedStatusReport, type StatusReport } from "./status";

/** Meta sends at most 3 MB; a little headroom. */
export const WEBHOOK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** Meta batches far fewer statuses per request; more is refused (413) rather than held up. */
export const WEBHOOK_MAX_STATUSES = 10_000;

function safeDecrypt(sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return decryptSecret(sealed);
  } catch {
    return null;
  }
}

/** `X-Hub-Signature-256: sha256=<hex>` over the exact bytes received, keyed with the app secret. */
export function verifySignature(raw: Uint8Array, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, "hex"));
}

export function signPayload(raw: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}

/** GET handshake: true when `token` is the verify token of some WhatsApp sender. */
export async function isKnownVerifyToken(db: Executor, token: string): Promise<boolean> {
  if (!token) return false;
  const rows = await db
    .select({ sealed: senders.verifyTokenEncrypted })
    .from(senders)
    .where(and(eq(senders.provider, "whatsapp"), isNotNull(senders.verifyTokenEncrypted)));
  let found = false;
  for (const row of rows) {
    const stored = safeDecrypt(row.sealed);
    // No early exit: every candidate is compared.
    if (stored !== null && constantTimeEqual(stored, token)) found = true;
  }
  return found;
}

export interface ParsedStatus {
  wamid: string;
  report: StatusReport;
}

export interface ParsedChange {
  /** `entry[].id`: the WhatsApp Business Account. */
  wabaId: string | null;
  /** `value.metadata.phone_number_id`: the business number the change is about. */
  phoneNumberId: string | null;
  statuses: ParsedStatus[];
  /** Messages contacts sent to the number (`value.messages[]`), every kind. */
  inbound: InboundMessage[];
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null);

function failureOf(status: Record<string, unknown>): { errorCode: string | null; errorReason: string } {
  const error = asRecord(asArray(status.errors)[0]);
  const code = error ? Number(error.code) : NaN;
  const metaMessage = asString(error?.message) ?? asString(error?.title);
  const details = asString(asRecord(error?.error_data)?.details);
  const parts = [metaMessage, details && details !== metaMessage ? details : null].filter(Boolean);
  const reason = parts.length > 0 ? parts.join(": ") : Number.isFinite(code) ? reasonForCode(code) : "WhatsApp reported the message as failed.";
  return { errorCode: Number.isFinite(code) ? String(code) : null, errorReason: reason };
}

/** The status updates and inbound messages in a webhook body; anything else is skipped. */
export function parseWebhookPayload(body: unknown, receivedAt: Date = new Date()): ParsedChange[] {
  const changes: ParsedChange[] = [];
  for (const entryValue of asArray(asRecord(body)?.entry)) {
    const entry = asRecord(entryValue);
    if (!entry) continue;
    for (const changeValue of asArray(entry.changes)) {
      const value = asRecord(asRecord(changeValue)?.value);
      if (!value) continue;
      const statuses: ParsedStatus[] = [];
      for (const statusValue of asArray(value.statuses)) {
        const status = asRecord(statusValue);
        const wamid = asString(status?.id);
        if (!status || !wamid || !isReportedStatus(status.status)) continue;
        const at = eventTime(status.timestamp, receivedAt);
        statuses.push({
          wamid,
          report: status.status === "failed" ? { status: "failed", at, ...failureOf(status) } : { status: status.status, at },
        });
      }
      const inbound = parseInboundMessages(value, receivedAt);
      changes.push({ wabaId: asString(entry.id), phoneNumberId: asString(asRecord(value.metadata)?.phone_number_id), statuses, inbound });
    }
  }
  return changes;
}

export type WebhookOutcome =
  | { ok: true; applied: number; ignored: number; pending: number; replies: number; inbound: number }
  | { ok: false; reason: "unsigned" | "bad_signature" }
  | { ok: false; reason: "too_many_statuses"; statuses: number };

/**
 * Verifies a POSTed webhook and applies its statuses. The body is signed with the app secret of
 * the sender that owns the business number (or account) it names; statuses are applied only to
 * messages of the workspaces whose secret verified it, so one tenant cannot forge another's.
 */
export async function handleWebhookDelivery(db: Executor, input: { raw: Uint8Array; body: unknown; signature: string | null }): Promise<WebhookOutcome> {
  if (!input.signature) return { ok: false, reason: "unsigned" };
  const changes = parseWebhookPayload(input.body);
  const phoneNumberIds = [...new Set(changes.map((c) => c.phoneNumberId).filter((v): v is string => v !== null))];
  const wabaIds = [...new Set(changes.map((c) => c.wabaId).filter((v): v is string => v !== null))];
  if (phoneNumberIds.length === 0 && wabaIds.length === 0) return { ok: false, reason: "bad_signature" };
  const candidates = await db
    .select({ id: senders.id, workspaceId: senders.workspaceId, phoneNumberId: senders.phoneNumberId, wabaId: senders.wabaId, appSecret: senders.appSecretEncrypted })
    .from(senders)
    .where(
      and(
        eq(senders.provider, "whatsapp"),
        isNotNull(senders.appSecretEncrypted),
        or(
          phoneNumberIds.length ? inArray(senders.phoneNumberId, phoneNumberIds) : undefined,
          wabaIds.length ? inArray(senders.wabaId, wabaIds) : undefined,
        ),
      ),
    );
  const verified = candidates.filter((candidate) => {
    const secret = safeDecrypt(candidate.appSecret);
    return secret !== null && verifySignature(input.raw, input.signature, secret);
  });
  if (verified.length === 0) return { ok: false, reason: "bad_signature" };
  const statusCount = changes.reduce((sum, change) => sum + change.statuses.length, 0);
  if (statusCount > WEBHOOK_MAX_STATUSES) return { ok: false, reason: "too_many_statuses", statuses: statusCount };

  // Every status of the request in one statement; those for wamids not stored yet are held.
  const reports: AddressedStatusReport[] = [];
  let ignored = 0;
  for (const change of changes) {
    const workspaceIds = new Set(
      verified.filter((sender) => (change.phoneNumberId ? sender.phoneNumberId === change.phoneNumberId : sender.wabaId === change.wabaId)).map((sender) => sender.workspaceId),
    );
    if (workspaceIds.size === 0) ignored += change.statuses.length;
    for (const status of change.statuses) {
      for (const workspaceId of workspaceIds) reports.push({ wamid: status.wamid, workspaceId, report: status.report });
    }
  }
  const outcome = await recordStatusReports(db, reports);
  ignored += outcome.ignored;

  // Inbound messages belong to the workspace whose business number received them: the number, never the account.
  let replies = 0;
  let stored = 0;
  for (const change of changes) {
    if (!change.phoneNumberId || change.inbound.length === 0) continue;
    for (const sender of verified.filter((candidate) => candidate.phoneNumberId === change.phoneNumberId)) {
      const recorded = await recordInboundMessages(db, { workspaceId: sender.workspaceId, senderId: sender.id }, change.inbound);
      stored += recorded.stored;
      replies += recorded.messages.filter((message) => message.consent.action !== "none").length;
    }
  }
  return { ok: true, applied: outcome.applied, ignored, pending: outcome.pending, replies, inbound: stored };
}
