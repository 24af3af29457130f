// The daily messaging limit as it stands for a sender's WhatsApp business account: unique recipients
// reached in the rolling 24 h by every sender id of the account (lib/senders/messaging-account.ts),
// messages released but not sent yet (written, or still in a launch's pending snapshot chunks), and
// held messages (queued, due at HELD_UNTIL).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { senders } from "@/db/schema";
import { accountSenderIdsSql, type SenderAccountFields } from "@/lib/senders/messaging-account";
import { availableUnderTier, TIER_WINDOW_MS, tierLimit, type MessagingTier } from "@/lib/senders/tier";

/** `next_attempt_at` of a message held by the daily limit: never due until housekeeping releases it. */
export const HELD_UNTIL = new Date("9999-12-31T00:00:00.000Z");
export const TIER_WAIT_CODE = "tier_wait";
export const TIER_WAIT_REASON = "Waiting for the sender's daily messaging limit (rolling 24 hours) to free up.";

type SenderRow = typeof senders.$inferSelect;

export interface TierUsage {
  tier: MessagingTier | null;
  known: boolean;
  limit: number | null;
  /** Unique phone numbers the sender's account sent to in the last 24 h. */
  usedLast24h: number;
  /** Messages of the account's senders due or being sent, written or not yet (they will use the limit soon). */
  pending: number;
  /** Recipients that can still be reached now; null without a (known) limit. */
  available: number | null;
}

/**
 * Where the sender's account stands against the sender's daily limit at `now`. A decision on it
 * (launch, release of held messages) holds `lockMessagingAccount` first.
 */
export async function tierUsage(db: Executor, sender: SenderAccountFields & Pick<SenderRow, "messagingTier">, now: Date): Promise<TierUsage> {
  const limit = tierLimit(sender.provider, sender.messagingTier);
  const since = new Date(now.getTime() - TIER_WINDOW_MS);
  const senderIds = accountSenderIdsSql(sender);
  const [row] = await queryRows<{ used: number | string; pending: number | string }>(
    db,
    sql`select
      (select count(distinct phone_number) from messages where sender_id = any (${senderIds}) and sent_at > ${since.toISOString()}::timestamptz)::int as used,
      ${
        limit.limit === null
          ? sql`0`
          : sql`(select count(*) from messages where sender_id = any (${senderIds}) and status in ('queued', 'sending')
              and next_attempt_at < ${HELD_UNTIL.toISOString()}::timestamptz and sent_at is null)
            + (select coalesce(sum(queued), 0) from bulk_snapshot_chunks where sender_id = any (${senderIds}))`
      }::int as pending`,
  );
  const usedLast24h = Number(row?.used ?? 0);
  const pending = Number(row?.pending ?? 0);
  return {
    tier: limit.tier,
    known: limit.known,
    limit: limit.limit,
    usedLast24h,
    pending,
    available: limit.known ? availableUnderTier(limit.limit, usedLast24h + pending) : null,
  };
}

/** When the window next frees up: 24 h after the oldest send still inside it (null when nothing is). */
export async function nextTierRelease(db: Executor, sender: SenderAccountFields, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - TIER_WINDOW_MS);
  const [row] = await queryRows<{ oldest: string | Date | null }>(
    db,
    sql`select min(sent_at) as oldest from messages where sender_id = any (${accountSenderIdsSql(sender)}) and sent_at > ${since.toISOString()}::timestamptz`,
  );
  if (!row?.oldest) return null;
  return new Date(new Date(row.oldest).getTime() + TIER_WINDOW_MS);
}
