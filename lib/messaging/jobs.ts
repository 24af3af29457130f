// Messaging's background work: the dispatch pass (dispatcher.ts). What the pass needs from other
// domains (bulk rendering and housekeeping, simulated deliveries) is handed in by the composition
// root (lib/engine); channels stay per module graph.
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
  });
}
