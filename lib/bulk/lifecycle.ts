// Bulk-only status changes besides launch and schedule: cancel (the rest of the audience is
// skipped) and completion (every message settled).
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { auditTransition, transition, type LifecycleOptions } from "@/lib/campaigns/lifecycle";
import type { CampaignRow, CampaignView } from "@/lib/campaigns/service";
import { CANCELLED_CODE, CANCELLED_REASON } from "@/lib/messaging/errors";
import { loadBulkCampaignRow } from "./launch";


/**
 * scheduled / sending / paused → cancelled. Every still-`queued` message (held ones included)
 * becomes `skipped` with error `cancelled` in one statement; messages a dispatcher holds right now
 * (`sending`) are its to settle. Snapshot chunks not written yet are written as skipped (`cancelled`)
 * by the dispatch passes (lib/bulk/snapshot.ts), and counted as skipped meanwhile.
 */
export async function cancelBulkCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  await loadBulkCampaignRow(db, workspaceId, id);
  return transition(db, workspaceId, id, "cancelled", null, options, async (tx) => {
    const [row] = await queryRows<{ skipped: number | string }>(
      tx,
      sql`with skipped as (
          update messages set status = 'skipped', error_code = ${CANCELLED_CODE}, error_reason = ${CANCELLED_REASON}, updated_at = now()
          where campaign_id = ${id} and source = 'bulk' and status = 'queued'
          returning 1
        )
        select (select count(*) from skipped)::int
          + (select coalesce(sum(queued + held), 0) from bulk_snapshot_chunks where campaign_id = ${id})::int as skipped`,
    );
    return { skipped: Number(row?.skipped ?? 0) };
  });
}

/**
 * sending → completed when no message of the campaign is `queued` or `sending` and every snapshot
 * chunk is written (held messages are queued, so a campaign waiting for the daily limit is not
 * complete). Returns whether it completed.
 */
export async function completeIfSettled(tx: Executor, row: CampaignRow, now: Date): Promise<boolean> {
  const [updated] = await tx
    .update(campaigns)
    .set({ status: "completed", completedAt: now, version: sql`${campaigns.version} + 1`, updatedAt: now })
    .where(
      and(
        eq(campaigns.id, row.id),
        eq(campaigns.status, "sending"),
        sql`not exists (select 1 from messages m where m.campaign_id = ${row.id} and m.source = 'bulk' and m.status in ('queued', 'sending'))`,
        sql`not exists (select 1 from bulk_snapshot_chunks k where k.campaign_id = ${row.id})`,
      ),
    )
    .returning();
  if (!updated) return false;
  await auditTransition(tx, row, updated, SYSTEM_ACTOR);
  return true;
}
