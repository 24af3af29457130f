// One cron call (`/api/cron/dispatch`): every job of the registry, side by side, each isolated.
import { runJobs } from "@/lib/jobs/runner";
import type { JobsSummary } from "@/lib/jobs/types";
import { installEngine } from "./jobs";

/** Longest a cron call runs its jobs (the route's maxDuration is 60 s). */
export const CRON_DEADLINE_MS = 45_000;

export function runCronJobs(): Promise<JobsSummary> {
  return runJobs(installEngine(), { deadlineMs: CRON_DEADLINE_MS });
}
