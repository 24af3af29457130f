// Alerts' background work: evaluating every workspace's alert conditions, at most every 30 s per process
// (ALERTS_EVERY_SECONDS).
import { envSchema } from "@/lib/env";
import { defineJob } from "@/lib/jobs/types";
import { evaluateAlerts } from "./evaluate";

const DEFAULT_EVERY_SECONDS = 30;

/** How often a process evaluates alerts: `ALERTS_EVERY_SECONDS` when lib/env's rule accepts it, else 30 s. */
export function alertsEveryMs(env: Record<string, string | undefined> = process.env): number {
  const configured = envSchema.shape.ALERTS_EVERY_SECONDS.safeParse(env.ALERTS_EVERY_SECONDS);
  return ((configured.success ? configured.data : undefined) ?? DEFAULT_EVERY_SECONDS) * 1000;
}

export const alertsJob = defineJob({
  name: "alerts.evaluate",
  every: alertsEveryMs(),
  run: async (db) => {
    const summary = await evaluateAlerts(db);
    return { opened: summary.opened.length, resolved: summary.resolved };
  },
});
