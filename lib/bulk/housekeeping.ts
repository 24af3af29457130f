// Bulk campaign housekeeping, run at the start of every dispatch pass (in-process loop, worker, cron):
// starts scheduled campaigns that are due, releases messages held by the sender's daily tier as the
// window frees up, and completes campaigns whose messages are all settled.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR } from "@/lib/audit/service";
import type { AuditAction } from "@/lib/audit/actions";
import { ApiError } from "@/lib/http/errors";
import { describeError } from "@/lib/logging";
import { lockMessagingAccount } from "@/lib/senders/messaging-account";
import { campaignSenderRow } from "@/lib/senders/service";
import { launchBulkCampaign } from "./launch";
import { completeIfSettled } from "./lifecycle";
import { HELD_UNTIL, tierUsage } from "./tier";

/** A scheduled campaign found later than this after its time is not started (the app was down). */
export const MAX_SCHEDULE_DELAY_MS = 24 * 60 * 60 * 1000;
/** Held messages are looked at per campaign at most this often by one process. */
const RELEASE_INTERVAL_MS = 10_000;
const lastReleaseCheck = new Map<string, number>();

/** Returns how many campaigns changed state in this call. */
export async function runBulkHousekeeping(db: Executor, now: Date): Promise<number> {
  let changed = 0;
  changed += await startDueCampaigns(db, now);
  await releaseHeldMessages(db, now);
  changed += await completeSettledCampaigns(db, now);
  return changed;
}

async function backToDraft(db: Executor, row: typeof campaigns.$inferSelect, action: AuditAction, metadata: Record<string, unknown>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "draft", version: sql`${campaigns.version} + 1`, updatedAt: new Date() })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, "scheduled"), eq(campaigns.version, row.version)))
      .returning();
    if (!updated) return false;
    await recordAudit(tx, {
      workspaceId: row.workspaceId,
      actor: SYSTEM_ACTOR,
      action,
      targetType: "campaign",
      targetId: row.id,
      metadata: { name: row.name, from: "scheduled", to: "draft", version: updated.version, scheduledAt: row.scheduledAt?.toISOString() ?? null, ...metadata },
    });
    return true;
  });
}

/** scheduled → sending when due; more than a day late → back to draft, marked missed; failing checks → draft too. */
async function startDueCampaigns(db: Executor, now: Date): Promise<number> {
  const due = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.kind, "bulk"), eq(campaigns.status, "scheduled"), sql`${campaigns.scheduledAt} <= ${now.toISOString()}::timestamptz`))
    .limit(20);
  let changed = 0;
  for (const row of due) {
    const lateMs = now.getTime() - (row.scheduledAt?.getTime() ?? now.getTime());
    if (lateMs > MAX_SCHEDULE_DELAY_MS) {
      if (await backToDraft(db, row, "campaign.schedule_missed", { lateSeconds: Math.round(lateMs / 1000) })) changed += 1;
      continue;
    }
    try {
      const launched = await launchBulkCampaign(db, row.workspaceId, row.id, { now });
      if (launched.status === "sending") changed += 1;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        if (await backToDraft(db, row, "campaign.schedule_failed", { code: error.code, detail: error.detail, errors: error.errors ?? [] })) changed += 1;
      } else {
        console.error(`Starting the scheduled bulk campaign ${row.id} failed; retried on the next pass. ${describeError(error)}`);
      }
    }
  }
  return changed;
}

/** Makes held messages due, as many as the daily limit of the sender's business account allows now. */
async function releaseHeldMessages(db: Executor, now: Date): Promise<number> {
  const candidates = await queryRows<{ id: string; workspace_id: string; sender_id: string | null }>(
    db,
    sql`select c.id, c.workspace_id, c.sender_id from campaigns c
      where c.kind = 'bulk' and c.status = 'sending' and c.allow_tier_wait
      limit 50`,
  );
  let released = 0;
  for (const campaign of candidates) {
    const last = lastReleaseCheck.get(campaign.id);
    if (last !== undefined && now.getTime() >= last && now.getTime() - last < RELEASE_INTERVAL_MS) continue;
    lastReleaseCheck.set(campaign.id, now.getTime());
    released += await db.transaction(async (tx) => {
      const sender = await campaignSenderRow(tx, campaign.workspace_id, campaign.sender_id);
      // Under the account's lock: a launch on the account cannot take the same room meanwhile.
      await lockMessagingAccount(tx, sender);
      const usage = await tierUsage(tx, sender, now);
      const room = usage.available === null ? null : usage.available;
      if (room === 0) return 0;
      const [row] = await queryRows<{ released: number | string }>(
        tx,
        sql`with released as (
            update messages set next_attempt_at = ${now.toISOString()}::timestamptz, error_code = null, error_reason = null, updated_at = now()
            where id in (
              select id from messages
              where campaign_id = ${campaign.id} and source = 'bulk' and status = 'queued' and next_attempt_at = ${HELD_UNTIL.toISOString()}::timestamptz
              ${room === null ? sql`` : sql`limit ${room}`}
              for update skip locked
            )
            returning 1
          )
          select count(*)::int as released from released`,
      );
      return Number(row?.released ?? 0);
    });
  }
  return released;
}

async function completeSettledCampaigns(db: Executor, now: Date): Promise<number> {
  const sending = await db.select().from(campaigns).where(and(eq(campaigns.kind, "bulk"), eq(campaigns.status, "sending"))).limit(100);
  let changed = 0;
  for (const row of sending) {
    if (await db.transaction((tx) => completeIfSettled(tx, row, now))) changed += 1;
  }
  return changed;
}
