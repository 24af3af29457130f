// Is this process's background work alive? In the loop each job runs again after max(1 s, `every`)
// and a run ends by its deadline (30 s at most): a job with no run ended for longer than its `every`
// plus a minute is stuck (a hung run never schedules the next one), and only a restart frees it.
import { chainingEnabled } from "./chain";
import { jobsState } from "./runner";

/** A job of the loop is stalled when no run of it ended for this long past its `every`. */
export const STALLED_AFTER_MS = 60_000;

export interface JobsHealth {
  /** `loop`: this process runs the loop; `serverless`: the dispatch chain runs the jobs (Vercel, DISPATCH_CHAIN=on); `off`: another process does (DISPATCHER=off). */
  mode: "loop" | "off" | "serverless";
  /** Since a run of any job last ended in this process (null: none has yet). */
  lastPassAgeMs: number | null;
  /** Jobs of the loop with no run ended for too long (the process should be restarted). */
  stalled: string[];
  /** Jobs whose last run in this process failed. */
  failing: string[];
}

export function jobsHealth(now = Date.now(), env: Record<string, string | undefined> = process.env): JobsHealth {
  const { lastEnd, loop } = jobsState();
  const ends = [...lastEnd.values()].map((end) => end.at);
  const lastPassAgeMs = ends.length > 0 ? Math.max(0, now - Math.max(...ends)) : null;
  const failing = [...lastEnd].filter(([, end]) => end.failed).map(([name]) => name).sort();
  if (!loop) return { mode: chainingEnabled(env) ? "serverless" : "off", lastPassAgeMs, stalled: [], failing };
  const stalled = loop.jobs
    .filter((job) => {
      // A run that ended before the loop started (a drain after a response) does not count for it.
      const since = Math.max(loop.startedAt, lastEnd.get(job.name)?.at ?? 0);
      return now - since > job.every + STALLED_AFTER_MS;
    })
    .map((job) => job.name)
    .sort();
  return { mode: "loop", lastPassAgeMs, stalled, failing };
}
