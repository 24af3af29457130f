// Event webhooks' background work: delivering due events (also right after a response, so the events
// of what was just sent and test events go out without waiting for the loop or cron), and about
// hourly deleting expired history.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import { defineJob } from "@/lib/jobs/types";
import { deliverDueWebhooks, pruneWebhookHistory, type WebhookPassSummary } from "./deliveries";

export const webhookDeliveryJob = defineJob<WebhookPassSummary>({
  name: "event-webhooks.deliver",
  every: 0,
  afterResponseMs: 5_000,
  run: (db, { deadline, signal }) => deliverDueWebhooks(db, { deadlineMs: Math.max(0, deadline - Date.now()), signal }),
  busy: (summary) => summary.attempted > 0,
  dueWithin: async (db, withinMs) => {
    const [row] = await queryRows<{ due: boolean }>(
      db,
      sql`select exists (select 1 from webhook_deliveries where status = 'pending'
            and next_attempt_at <= now() + ${withinMs} * interval '1 millisecond') as due`,
    );
    return Boolean(row?.due);
  },
});

export const webhookPruneJob = defineJob({
  name: "event-webhooks.prune",
  every: 60 * 60 * 1000,
  run: (db) => pruneWebhookHistory(db),
});
