// The journey runner as a job: on the loop, and after a response that entered or woke runs (asked for
// by name: a classic trigger's drain never waits for it). A pass
// whose next run falls due within a second sleeps until it and runs again, so timers fire to the second.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import { defineJob } from "@/lib/jobs/types";
import { runJobsSoon } from "@/lib/jobs/soon";
import { runDueBatch } from "./batch";
import type { RunnerPass } from "./runner";

export const JOURNEY_STEPS_JOB = "journeys.steps";
/** The dispatch pass (lib/messaging), asked for when a pass queued messages. */
const DISPATCH_JOB = "messaging.dispatch";
/** A run due within this long is waited for inside the pass rather than left to the next one. */
const SLEEP_WITHIN_MS = 1_000;
/** Runs claimed by one pass: the common ones are executed set-based in one transaction (batch.ts). */
const BATCH = 500;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export interface JourneyStepsSummary {
  ran: number;
  steps: number;
  woken: number;
}

export const journeyStepsJob = defineJob<JourneyStepsSummary>({
  name: JOURNEY_STEPS_JOB,
  every: 0,
  maxMs: 30_000,
  singleFlight: true,
  run: async (db, { deadline, signal }) => {
    const total: JourneyStepsSummary = { ran: 0, steps: 0, woken: 0 };
    while (!signal.aborted && Date.now() < deadline) {
      const pass: RunnerPass = await runDueBatch(db, { limit: BATCH, deadline });
      total.ran += pass.ran;
      total.steps += pass.steps;
      total.woken += pass.woken;
      if (pass.ran >= BATCH) continue;
      if (pass.nextDueMs === null || pass.nextDueMs > SLEEP_WITHIN_MS || Date.now() + pass.nextDueMs >= deadline) break;
      await sleep(pass.nextDueMs + 5, signal);
    }
    if (total.steps > 0) runJobsSoon([DISPATCH_JOB]);
    return total;
  },
  busy: (summary) => summary.ran > 0,
  // The runner's own claim index (journey_runs_due_idx).
  dueWithin: async (db, withinMs) => {
    const [row] = await queryRows<{ due: boolean }>(
      db,
      sql`select exists (select 1 from journey_runs where status in ('active', 'waiting')
            and due_at <= now() + ${withinMs} * interval '1 millisecond') as due`,
    );
    return Boolean(row?.due);
  },
});
