// The in-process loop for long-running processes (`next start`, `npm run worker`): every job of the
// registry runs on its own schedule, so a slow one (a customer's webhook endpoint, a million-contact
// snapshot) never holds up another (sending). A job runs again at once while it finds work, else
// after max(poll, its `every`). On SIGTERM/SIGINT every run is told to stop (a dispatch pass stops
// claiming at once, hands back what it holds and gives requests in flight up to 5 s), well within
// Docker's 10 s grace.
import { describeError } from "@/lib/logging";
import { jobsState, runJob, stopJobs } from "./runner";
import type { AnyJob } from "./types";

const POLL_MS = 1_000;
/** How long one run of a job may take in the loop (its own `maxMs` may be shorter). */
const LOOP_DEADLINE_MS = 30_000;

interface LoopState {
  stop: () => Promise<void>;
}

/** Starts the loop once per process; returns a function that stops it (and waits for the runs). */
export function startJobLoop(jobs: AnyJob[], options: { pollMs?: number } = {}): () => Promise<void> {
  const global = globalThis as { __sendstreamJobLoop?: LoopState };
  if (global.__sendstreamJobLoop) return global.__sendstreamJobLoop.stop;
  const pollMs = options.pollMs ?? POLL_MS;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const current = new Set<Promise<void>>();

  const schedule = (job: AnyJob, delay: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const tick = (async () => {
        let busy = false;
        try {
          busy = (await runJob(job, { deadlineMs: LOOP_DEADLINE_MS })).busy;
        } catch (error) {
          console.error(`[jobs] ${job.name} loop run failed: ${describeError(error)}`);
        }
        if (!stopped) schedule(job, busy ? 0 : Math.max(pollMs, job.every));
      })();
      current.add(tick);
      void tick.finally(() => current.delete(tick));
    }, delay);
    timer.unref();
    timers.add(timer);
  };

  const stop = async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    delete global.__sendstreamJobLoop;
    jobsState().loop = null;
    await Promise.all([...current, stopJobs()]);
  };
  const onSignal = () => void stop();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  global.__sendstreamJobLoop = { stop };
  jobsState().loop = { startedAt: Date.now(), jobs: jobs.map((job) => ({ name: job.name, every: job.every })) };
  for (const job of jobs) schedule(job, 0);
  return stop;
}
