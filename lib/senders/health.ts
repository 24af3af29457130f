// Cheap health of a sender from its latest sends, for banners, alerts and the switch confirmation.
import { and, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { newestFirst } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { messages } from "@/db/schema";
import { getChannel, type ChannelName } from "@/lib/channels";
import { campaignSenderRow } from "./service";

/**
 * Error codes that mean the sender itself cannot send (credentials, permissions, account,
 * reachability): its channel says which of its codes are; a send whose outcome is unknown is too.
 */
const isSenderLevel = (provider: ChannelName, code: string | null) =>
  code !== null && (code === "outcome_unknown" || getChannel(provider).senderTrouble(code) !== null);

interface SenderHealthBase {
  senderId: string;
  reason: string | null;
  /** The error code of the latest such failure. */
  code: string | null;
  /** When the run of such failures began. */
  since: string | null;
}

/**
 * The latest send attempts of the current sender (at least the last two, or the only one so far;
 * retries waiting included) failed for a reason of the sender (token, permissions, account,
 * reachability): `failing`, with the messages that wait for it counted. A healthy sender's are not
 * (every page's banner asks, and the count reads each queued message of the sender): the sender's
 * page asks `pendingMessageCount`.
 */
export type SenderHealth =
  | (SenderHealthBase & { failing: true; /** Messages queued or being sent by the sender. */ pendingMessages: number })
  | (SenderHealthBase & { failing: false });

/** How many of the latest sends are looked at. */
const HEALTH_WINDOW = 5;
/** Latest attempts in a row that must have failed for a reason of the sender. */
const FAILING_RUN = 2;

/**
 * Health of a sender (the workspace's default without `senderId`). A message waiting for a retry
 * after a sender-level error counts as a failed attempt: that is how a sender that cannot reach
 * WhatsApp looks while its messages are still queued.
 */
export async function senderHealth(db: Executor, workspaceId: string, senderId?: string): Promise<SenderHealth> {
  const sender = await campaignSenderRow(db, workspaceId, senderId);
  const recent = await db
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
    .orderBy(...newestFirst(messages.createdAt))
    .limit(HEALTH_WINDOW);
  const failedAttempt = (m: (typeof recent)[number]) =>
    (m.status === "failed" || m.status === "queued" || m.status === "sending") && isSenderLevel(sender.provider, m.errorCode);
  // The run of such failures up to the latest attempt: two in a row (or the only attempt so far).
  const firstGood = recent.findIndex((m) => !failedAttempt(m));
  const run = firstGood === -1 ? recent : recent.slice(0, firstGood);
  const failing = run.length > 0 && run.length >= Math.min(FAILING_RUN, recent.length);
  if (!failing) return { senderId: sender.id, failing: false, reason: null, code: null, since: null };
  const since = run.reduce<Date | null>((oldest, m) => {
    const at = m.failedAt ?? m.updatedAt;
    return !oldest || at < oldest ? at : oldest;
  }, null);
  return {
    senderId: sender.id,
    failing: true,
    reason: recent[0]!.errorReason ?? null,
    code: recent[0]!.errorCode ?? null,
    since: since?.toISOString() ?? null,
    pendingMessages: await pendingMessageCount(db, workspaceId, sender.id),
  };
}

/** Messages queued or being sent by the sender: what a provider or number change would fail. */
export async function pendingMessageCount(db: Executor, workspaceId: string, senderId: string): Promise<number> {
  // Per source, so each count reads its partial index of due messages (messages_due_idx,
  // messages_bulk_due_idx); together they are a scan of every message.
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select (select count(*) from messages where workspace_id = ${workspaceId} and sender_id = ${senderId}
          and status in ('queued', 'sending') and source <> 'bulk')::int
      + (select count(*) from messages where workspace_id = ${workspaceId} and sender_id = ${senderId}
          and status in ('queued', 'sending') and source = 'bulk')::int as count`,
  );
  return Number(row?.count ?? 0);
}
