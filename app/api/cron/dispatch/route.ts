import { dispatchDue } from "@/lib/messaging";
import { deliverWebhooksDue, evaluateAlertsDue, writeSnapshotsDue } from "@/lib/messaging/dispatch";
import { assertCronAuthorized } from "@/lib/messaging/cron";
import { json, withPublic } from "@/lib/routing/route";

// Vercel Cron calls this every minute (vercel.json); it drains due messages, retries and event webhooks, writes
// launched bulk snapshots' messages, and evaluates alerts.
export const maxDuration = 60;

const handler = withPublic(async ({ request }) => {
  assertCronAuthorized(request.headers.get("authorization"), process.env.CRON_SECRET);
  const [summary, webhooks, alerts, snapshotMessagesWritten] = await Promise.all([
    dispatchDue({ deadlineMs: 45_000 }),
    deliverWebhooksDue({ deadlineMs: 45_000 }),
    evaluateAlertsDue(),
    writeSnapshotsDue({ deadlineMs: 45_000 }),
  ]);
  return json({ ...summary, webhooks, snapshotMessagesWritten, alerts: alerts && { opened: alerts.opened.length, resolved: alerts.resolved } }, { headers: { "Cache-Control": "no-store" } });
});

export const GET = handler;
export const POST = handler;
