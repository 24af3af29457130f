// A bulk campaign's progress, cheap enough to poll every few seconds on a million messages: the
// maintained counts (lib/campaigns/counts.ts) with the replies, the rate of the last 10 s from the
// (campaign_id, status, sent_at) index, failure reasons from the failed rows only.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { countsByCampaign } from "@/lib/campaigns/counts";
import { funnelFromStatusCounts, funnelTotal, pendingSnapshotCounts, withPendingSnapshot, type Funnel } from "@/lib/campaigns/funnel";
import { campaignSenderRow } from "@/lib/senders/service";
import { loadBulkCampaignRow } from "./launch";
import { HELD_UNTIL, nextTierRelease, tierUsage } from "./tier";

export const RATE_WINDOW_MS = 10_000;

export interface BulkProgress {
  status: string;
  total: number;
  funnel: Funnel;
  held: number;
  topFailureReasons: { code: string | null; reason: string | null; count: number }[];
  ratePerSecond: number;
  estimatedFinishAt: string | null;
  waitingUntil: string | null;
}

export async function getBulkProgress(db: Executor, workspaceId: string, id: string, now: Date = new Date()): Promise<BulkProgress> {
  const row = await loadBulkCampaignRow(db, workspaceId, id);
  const since = new Date(now.getTime() - RATE_WINDOW_MS).toISOString();
  const counted = (await countsByCampaign(db, workspaceId, [row.id])).get(row.id);
  const pending = (await pendingSnapshotCounts(db, [row.id])).get(row.id);
  const funnel = withPendingSnapshot(funnelFromStatusCounts(counted?.counts ?? {}, counted?.replied ?? 0), pending);

  const [recent] = await queryRows<{ count: number | string }>(
    db,
    sql`select count(*)::int as count from messages
      where campaign_id = ${row.id} and source = 'bulk' and status in ('sent', 'delivered', 'read') and sent_at > ${since}::timestamptz`,
  );
  const ratePerSecond = Math.round((Number(recent?.count ?? 0) / (RATE_WINDOW_MS / 1000)) * 10) / 10;

  const failures = funnel.failed === 0
    ? []
    : await queryRows<{ code: string | null; reason: string | null; count: number | string }>(
        db,
        sql`select error_code as code, min(error_reason) as reason, count(*)::int as count from messages
          where campaign_id = ${row.id} and source = 'bulk' and status = 'failed'
          group by error_code order by count(*) desc, error_code limit 5`,
      );

  let held = pending?.held ?? 0;
  if (row.allowTierWait && funnel.queued > 0) {
    const [h] = await queryRows<{ count: number | string }>(
      db,
      sql`select count(*)::int as count from messages
        where campaign_id = ${row.id} and source = 'bulk' and status = 'queued' and next_attempt_at = ${HELD_UNTIL.toISOString()}::timestamptz`,
    );
    held += Number(h?.count ?? 0);
  }

  let waitingUntil: string | null = null;
  if (held > 0) {
    const sender = await campaignSenderRow(db, workspaceId, row.senderId);
    const usage = await tierUsage(db, sender, now);
    const release = usage.available !== null && usage.available > 0 ? now : await nextTierRelease(db, sender, now);
    waitingUntil = (release ?? now).toISOString();
  }

  const sendingNow = funnel.queued - held;
  let estimatedFinishAt: string | null = null;
  if (row.status === "sending" && sendingNow > 0) {
    const sender = await campaignSenderRow(db, workspaceId, row.senderId);
    const configured = Math.min(row.sendRatePerSecond ?? sender.throughputPerSecond, sender.throughputPerSecond);
    const rate = ratePerSecond > 0 ? ratePerSecond : configured;
    estimatedFinishAt = new Date(now.getTime() + Math.ceil((sendingNow / rate) * 1000)).toISOString();
  } else if (row.status === "completed" && row.completedAt) {
    estimatedFinishAt = row.completedAt.toISOString();
  }

  return {
    status: row.status,
    total: funnelTotal(funnel),
    funnel,
    held,
    topFailureReasons: failures.map((f) => ({ code: f.code, reason: f.reason, count: Number(f.count) })),
    ratePerSecond,
    estimatedFinishAt,
    waitingUntil,
  };
}
