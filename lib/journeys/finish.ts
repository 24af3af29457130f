// Ending runs before their last step: an exit event (`exited`), a member or the API (`ended`), a step
// that cannot run (`failed`). One statement per call: the runs stop, each gets its history row, and
// the messages they queued that have not left yet are skipped — so nothing is sent for a run after
// its end was accepted. A run the runner holds (FOR UPDATE) is ended once the runner's step commits.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";

export type FinishStatus = "exited" | "ended" | "failed";

const SKIP_CODES: Record<FinishStatus, string> = { exited: "journey_exited", ended: "journey_ended", failed: "journey_failed" };

export interface FinishedRun {
  id: string;
  campaign_id: string;
  contact_id: string;
  step_id: string | null;
}

/**
 * Ends the going runs (`active` or `waiting`) that `where` selects (a condition on `r`, the
 * journey_runs row) with `status` and `reason`. Returns the runs it ended.
 */
export async function finishRuns(db: Executor, where: SQL, status: FinishStatus, reason: string): Promise<FinishedRun[]> {
  return queryRows<FinishedRun>(
    db,
    sql`with finished as (
        update journey_runs r
        set status = ${status}, exit_reason = ${reason}, ended_at = now(), updated_at = now(), due_at = null, wait_token = null
        where r.status in ('active', 'waiting') and (${where})
        returning r.id, r.campaign_id, r.contact_id, r.step_id
      ),
      history as (
        insert into journey_run_steps (id, run_id, campaign_id, step_id, outcome, detail)
        select 'jrs_' || substr(md5(random()::text || f.id), 1, 22), f.id, f.campaign_id, coalesce(f.step_id, ''), ${status}, ${reason}
        from finished f
      ),
      skipped as (
        update messages m
        set status = 'skipped', error_code = ${SKIP_CODES[status]}, error_reason = ${reason}, updated_at = now()
        from finished f
        where m.journey_run_id = f.id and m.status = 'queued'
      )
      select id, campaign_id, contact_id, step_id from finished`,
  );
}

/** Ends one run of the workspace by a member or the API; null when it is not going (or not theirs). */
export async function endRun(db: Executor, workspaceId: string, runId: string, reason: string): Promise<FinishedRun | null> {
  const [run] = await finishRuns(db, sql`r.id = ${runId} and r.workspace_id = ${workspaceId}`, "ended", reason);
  return run ?? null;
}
