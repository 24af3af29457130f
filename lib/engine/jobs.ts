// The composition root of background work: the one list of every job, and the wiring of what the
// dispatcher is handed instead of importing it (bulk rendering and housekeeping, simulated
// deliveries). The top layer: it imports domains, nothing in lib/ imports it.
import type { Executor } from "@/db/types";
import { refreshEmbeddedStatistics } from "@/db/embedded-statistics";
import { endStuckSessions } from "@/db/stuck-sessions";
import { alertsJob } from "@/lib/alerts/jobs";
import { bulkDispatchHooks, bulkSnapshotJob } from "@/lib/bulk/jobs";
import { campaignCountsJob } from "@/lib/campaigns/jobs";
import { webhookDeliveryJob, webhookPruneJob } from "@/lib/event-webhooks/jobs";
import { importRecoveryJob } from "@/lib/imports/jobs";
import { installJobs } from "@/lib/jobs/runner";
import { journeyStepsJob } from "@/lib/journeys/jobs";
import { defineJob, type AnyJob } from "@/lib/jobs/types";
import type { DispatchDeps } from "@/lib/messaging/dispatch-contract";
import { dispatchJob } from "@/lib/messaging/jobs";
import { simulateSandboxCampaignReplies } from "@/lib/inbound/sandbox-campaign-replies";
import { advanceSandboxDeliveries } from "@/lib/outbox/sandbox-deliveries";

/** What a dispatch pass is handed from other domains (every pass of the process gets the same). */
export function dispatchDependencies(): Pick<DispatchDeps, "renderClaimed" | "housekeeping" | "simulateDeliveries"> {
  return {
    renderClaimed: bulkDispatchHooks.renderClaimed,
    housekeeping: bulkDispatchHooks.housekeeping,
    // Deliveries first: a reply needs its message read.
    simulateDeliveries: async (db: Executor, now: Date) => (await advanceSandboxDeliveries(db, now)) + (await simulateSandboxCampaignReplies(db, now)),
  };
}

/** Ends database sessions stuck idle in a transaction or on a statement past the limits (db/stuck-sessions.ts). */
const stuckSessionsJob = defineJob({
  name: "database.stuck-sessions",
  every: 30_000,
  run: async (db) => {
    const ended = await endStuckSessions(db);
    for (const session of ended) console.error(`[database] ended session ${session.pid}: ${session.state} for ${session.seconds} s`);
    return { ended: ended.length };
  },
});

/** The embedded database's planner statistics, which nothing else refreshes there (db/embedded-statistics.ts); a no-op on Postgres. */
const embeddedStatisticsJob = defineJob({
  name: "database.embedded-statistics",
  every: 60 * 60_000,
  run: (db) => refreshEmbeddedStatistics(db),
});

/**
 * Every background job, in the order a drain after a response runs its share of them: the dispatch
 * pass first, then event webhooks (the events of what was just sent). Journey steps come before the
 * dispatch: the messages a run's first step queues go out in the same drain.
 */
export const ENGINE_JOBS: readonly AnyJob[] = [
  journeyStepsJob,
  dispatchJob(dispatchDependencies()),
  webhookDeliveryJob,
  bulkSnapshotJob,
  alertsJob,
  campaignCountsJob,
  importRecoveryJob,
  webhookPruneJob,
  stuckSessionsJob,
  embeddedStatisticsJob,
];

/** Installs the registry in this process (idempotent): drains after responses run from it. */
export function installEngine(): AnyJob[] {
  const jobs = [...ENGINE_JOBS];
  installJobs(jobs);
  return jobs;
}
