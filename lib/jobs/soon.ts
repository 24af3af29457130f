// The drain after a response: the jobs a request's work needs (messages it queued, events it raised,
// a launched snapshot) run right after it is answered rather than at the loop's or cron's next run.
// Inside a request it uses `after()` from next/server (serverless platforms keep the function alive
// for it); elsewhere it runs on the next tick. A call while the same drain runs coalesces into one
// more drain. Never throws.
import { after } from "next/server";
import { describeError } from "@/lib/logging";
import { chainingEnabled, chainRunning, startChainIfDue } from "./chain";
import { installedJobs, jobsState, runJobs, track } from "./runner";
import type { AnyJob } from "./types";

/** How long a job asked for by name gets when it has no `afterResponseMs` of its own. */
const NAMED_DEADLINE_MS = 30_000;

interface Drain {
  running: Promise<void> | null;
  again: boolean;
}

function drains(): Map<string, Drain> {
  const global = globalThis as { __sendstreamJobDrains?: Map<string, Drain> };
  global.__sendstreamJobDrains ??= new Map();
  return global.__sendstreamJobDrains;
}

/** The jobs a drain runs: every job with `afterResponseMs`, or the named ones (in registry order). */
function selected(names: string[] | undefined): AnyJob[] {
  const jobs = installedJobs();
  return names ? jobs.filter((job) => names.includes(job.name)) : jobs.filter((job) => job.afterResponseMs !== undefined);
}

function drain(names: string[] | undefined): Promise<void> {
  const key = names?.join(",") ?? "";
  const all = drains();
  const current = all.get(key);
  if (current?.running) {
    current.again = true;
    return current.running;
  }
  const entry: Drain = current ?? { running: null, again: false };
  all.set(key, entry);
  // The body starts on the next microtask, after `entry.running` is set: a drain with nothing to do
  // (jobs stopped, none selected) ends without awaiting, and its `finally` must clear what was set.
  entry.running = track(
    Promise.resolve().then(async () => {
      try {
        do {
          entry.again = false;
          if (jobsState().shutdown.signal.aborted) break;
          // Serverless: a running chain does this work (its passes claim within a second). A drain
          // beside it would compete for the same messages (a bulk send's) and keep this function
          // running for its whole deadline.
          if (chainingEnabled() && (await chainRunning())) return;
          // One after another, in registry order: the events of what was just sent go out after the sends.
          for (const job of selected(names)) {
            if (jobsState().shutdown.signal.aborted) break;
            await runJobs([job], { deadlineMs: job.afterResponseMs ?? job.maxMs ?? NAMED_DEADLINE_MS });
          }
        } while (entry.again);
        // Serverless: no loop runs after this drain; work it left (a bulk send, a message waiting
        // for its number's slot) goes on in a chain of cron calls.
        if (chainingEnabled() && !jobsState().shutdown.signal.aborted) await startChainIfDue();
      } catch (error) {
        console.error(`[jobs] work after a response failed: ${describeError(error)}`);
      } finally {
        entry.running = null;
      }
    }),
  );
  return entry.running;
}

/**
 * Runs the after-response jobs (or only `names`) right after the current response. Calls during a
 * running drain coalesce into one more drain. Never throws.
 */
export function runJobsSoon(names?: string[]): void {
  try {
    after(() => drain(names));
  } catch {
    // Not inside a request (scripts, tests, the in-process loop).
    setImmediate(() => void drain(names));
  }
}

/** A drain started by `runJobsSoon` that is still running, if any. */
export function drainInProgress(): Promise<void> | null {
  for (const entry of drains().values()) if (entry.running) return entry.running;
  return null;
}

/** Resolves when every drain started by `runJobsSoon` has finished (shutdown, tests). */
export async function jobsSettled(): Promise<void> {
  for (let running = drainInProgress(); running; running = drainInProgress()) await running;
}
