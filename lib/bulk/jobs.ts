// The bulk backend's background work. Writing launched snapshots' messages is a job of its own (the
// loop, the cron route, and the drain after a launch's response run it); housekeeping and rendering
// run inside each dispatch pass, handed to the dispatcher by the composition root (lib/engine), so a
// campaign housekeeping starts is claimed in the same pass.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { Executor } from "@/db/types";
import { defineJob } from "@/lib/jobs/types";
import { runBulkHousekeeping } from "./housekeeping";
import { renderClaimedBulkMessages } from "./send-render";
import { writeSnapshotChunksDue } from "./snapshot";

export const SNAPSHOT_JOB = "bulk.snapshots";

/**
 * Writes the queued messages of launched campaigns' pending snapshot chunks until none is left or the
 * deadline passes: one writer per process (a call while it runs joins it); a failed chunk is rolled
 * back and written by a later run.
 */
export const bulkSnapshotJob = defineJob<number>({
  name: SNAPSHOT_JOB,
  every: 0,
  singleFlight: true,
  run: (db, { deadline, signal }) => writeSnapshotChunksDue(db, { deadline, signal }),
  busy: (written) => written > 0,
  dueWithin: snapshotsOrStartsDueWithin,
});

/** A launched snapshot's chunk to write, or a scheduled campaign starting within `withinMs` (the dispatch pass's housekeeping starts it). */
async function snapshotsOrStartsDueWithin(db: Executor, withinMs: number): Promise<boolean> {
  const [row] = await queryRows<{ due: boolean }>(
    db,
    sql`select exists (select 1 from bulk_snapshot_chunks)
        or exists (select 1 from campaigns where kind = 'bulk' and status = 'scheduled'
          and scheduled_at <= now() + ${withinMs} * interval '1 millisecond') as due`,
  );
  return Boolean(row?.due);
}

/** What the dispatcher is given by bulk: rendering of claimed bare rows, and housekeeping beside each pass's claims. */
export const bulkDispatchHooks = {
  renderClaimed: renderClaimedBulkMessages,
  /** Starts due scheduled campaigns, releases tier-held messages, completes settled campaigns. */
  housekeeping: (db: Executor, now: Date) => runBulkHousekeeping(db, now),
};
