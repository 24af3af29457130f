// Process-level entry points to sending: the drain after a response and shutdown. Both go through
// the job registry (lib/jobs): the drain runs every after-response job (the dispatch pass, then event
// webhook delivery), shutdown stops every run of the process.
import { jobsSettled, runJobsSoon } from "@/lib/jobs/soon";
import { stopJobs } from "@/lib/jobs/runner";

/**
 * Sends queued messages (and delivers the events they raise) right after the current response.
 * Inside a request it uses `after()` (so serverless platforms keep the function alive for it);
 * elsewhere it runs on the next tick. Calls during a running drain coalesce into one more drain.
 * Never throws.
 */
export function dispatchSoon(): void {
  runJobsSoon();
}

/** Resolves when the drain started by dispatchSoon (if any) has finished (shutdown, tests). */
export function dispatchSettled(): Promise<void> {
  return jobsSettled();
}

/**
 * Shutdown: every running pass stops claiming at once, hands back the messages it holds and gives
 * requests in flight up to 5 s. Resolves when every run of the process has ended.
 */
export function stopDispatching(): Promise<void> {
  return stopJobs();
}
