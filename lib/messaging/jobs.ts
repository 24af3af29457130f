// Messaging's background work: the dispatch pass (dispatcher.ts). What the pass needs from other
// domains (bulk rendering and housekeeping, simulated deliveries) is handed in by the composition
// root (lib/engine); channels stay per module graph.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { Executor } from "@/db/types";
import { defineJob } from "@/lib/jobs/types";
import { runDispatch, type DispatchDeps, type DispatchSummary } from "./dispatcher";
import { defaultChannels } from "@/lib/channels";

export const DISPATCH_JOB = "messaging.dispatch";

const channels = defaultChannels();

/** The dispatch pass as a job: runs whenever asked, and for up to 20 s after a response that queued messages. */
export function dispatchJob(deps: Omit<DispatchDeps, "db">) {
  return defineJob<DispatchSummary>({
    name: DISPATCH_JOB,
    every: 0,
    afterResponseMs: 20_000,
    run: (db, { deadline, signal }) => runDispatch({ channels, ...deps, db }, { deadlineMs: Math.max(0, deadline - Date.now()), signal }),
    busy: (summary) => summary.claimed > 0,
    dueWithin: messagesDueWithin,
  });
}

/** A trigger or test message (or a retry) due within `withinMs`, or a sending bulk campaign's (both partial indexes). */
export async function messagesDueWithin(db: Executor, withinMs: number): Promise<boolean> {
  const [row] = await queryRows<{ due: boolean }>(
    db,
    sql`select exists (select 1 from messages where status in ('queued', 'sending') and source <> 'bulk'
          and next_attempt_at <= now() + ${withinMs} * interval '1 millisecond')
        or exists (select 1 from campaigns c where c.status = 'sending' and exists (
          select 1 from messages m where m.campaign_id = c.id and m.status in ('queued', 'sending') and m.source = 'bulk'
            and m.next_attempt_at <= now() + ${withinMs} * interval '1 millisecond')) as due`,
  );
  return Boolean(row?.due);
}
