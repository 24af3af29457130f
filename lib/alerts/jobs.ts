// Alerts' background work: evaluating every workspace's alert conditions, at most every 30 s per process.
import { defineJob } from "@/lib/jobs/types";
import { evaluateAlerts } from "./evaluate";

export const alertsJob = defineJob({
  name: "alerts.evaluate",
  every: 30_000,
  run: async (db) => {
    const summary = await evaluateAlerts(db);
    return { opened: summary.opened.length, resolved: summary.resolved };
  },
});
