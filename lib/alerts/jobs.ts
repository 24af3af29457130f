// Alerts' background work: evaluating every workspace's alert conditions, at most every 30 s per process
// (ALERTS_EVERY_SECONDS).
import { defineJob } from "@/lib/jobs/types";
import { evaluateAlerts } from "./evaluate";

const DEFAULT_EVERY_SECONDS = 30;

/** How often a process evaluates alerts: `ALERTS_EVERY_SECONDS` (1–3600, validated by lib/env at start), else 30 s. */
export function alertsEveryMs(env: Record<string, string | undefined> = process.env): number {
  const seconds = Number(env.ALERTS_EVERY_SECONDS);
  return (Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600 ? seconds : DEFAULT_EVERY_SECONDS) * 1000;
}

export const alertsJob = defineJob({
  name: "alerts.evaluate",
  every: alertsEveryMs(),
  run: async (db) => {
    const summary = await evaluateAlerts(db);
    return { opened: summary.opened.length, resolved: summary.resolved };
  },
});
