// Ending runs before their last step: an exit event (`exited`), a member or the API (`ended`), a step
// that cannot run (`failed`). One statement per call: the runs stop, each gets its history row, and
// the messages they queued that have not left yet are skipped — so nothing is sent for a run after
// its end was accepted. A run the runner holds (FOR UPDATE) is ended once the runner's step commits.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";

export type FinishStatus = "exited" | "ended" | "failed";

/**
 * A run's messages that have not left: queued, or held by a dispatcher (waiting in its lane for the
 * number's next slot) without the in-flight mark a request needs before it leaves. That mark is
 * fenced on the row still being held (lib/messaging/in-flight.ts), so a skipped one is never sent.
 */
const NOT_LEFT = sql`(m.status = 'queued' or (m.status = 'sending' and m.in_flight_at is null))`;

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
  return db.transaction(async (tx) => {
    // Lock first: a run the runner holds is waited for, and the next statement's snapshot then sees
    // the message its step queued (one statement's snapshot predates that commit and would miss it).
    await tx.execute(sql`select r.id from journey_runs r where r.status in ('active', 'waiting') and (${where}) order by r.id for update`);
    return queryRows<FinishedRun>(tx, sql`with ${finishRunsCtes("finished", where, status, reason)} select id, campaign_id, contact_id, step_id from finished`);
  });
}

/**
 * Skips what runs ended inside a larger statement still have queued: that statement may have
 * waited for the runner to release a run, and its snapshot then misses the message the step queued.
 */
export async function skipQueuedOfRuns(db: Executor, runIds: string[], status: FinishStatus, reason: string): Promise<void> {
  if (runIds.length === 0) return;
  await db.execute(sql`update messages m set status = 'skipped', error_code = ${SKIP_CODES[status]}, error_reason = ${reason}, locked_until = null, updated_at = now()
    where m.journey_run_id in (select jsonb_array_elements_text(${JSON.stringify(runIds)}::jsonb)) and ${NOT_LEFT}`);
}

/**
 * The CTEs behind `finishRuns`, to end runs inside a larger statement (the trigger's, an event's):
 * `<name>` returns the ended runs (id, campaign_id, contact_id, step_id); `<name>_history` and
 * `<name>_skipped` write the history rows and skip their queued messages. `extraSet`: more
 * assignments (`, column = …`) of the same update.
 */
export function finishRunsCtes(name: string, where: SQL, status: FinishStatus, reason: string, extraSet: SQL = sql``): SQL {
  const finished = sql.raw(name);
  return sql`${finished} as (
        update journey_runs r
        set status = ${status}, exit_reason = ${reason}, ended_at = now(), updated_at = now(), due_at = null, wait_token = null${extraSet}
        where r.status in ('active', 'waiting') and (${where})
        returning r.id, r.campaign_id, r.contact_id, r.step_id
      ),
      ${sql.raw(`${name}_history`)} as (
        insert into journey_run_steps (id, run_id, campaign_id, step_id, outcome, detail)
        select 'jrs_' || substr(md5(random()::text || f.id), 1, 22), f.id, f.campaign_id, coalesce(f.step_id, ''), ${status}, ${reason}
        from ${finished} f
      ),
      ${sql.raw(`${name}_skipped`)} as (
        update messages m
        set status = 'skipped', error_code = ${SKIP_CODES[status]}, error_reason = ${reason}, locked_until = null, updated_at = now()
        from ${finished} f
        where m.journey_run_id = f.id and ${NOT_LEFT}
      )`;
}

/** Ends one run of the workspace by a member or the API; null when it is not going (or not theirs). */
export async function endRun(db: Executor, workspaceId: string, runId: string, reason: string): Promise<FinishedRun | null> {
  const [run] = await finishRuns(db, sql`r.id = ${runId} and r.workspace_id = ${workspaceId}`, "ended", reason);
  return run ?? null;
}
