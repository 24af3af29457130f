import { runCronJobs } from "@/lib/engine/cron";
import { assertCronAuthorized } from "@/lib/messaging/cron";
import { json, withPublic } from "@/lib/routing/route";

// Vercel Cron calls this every minute (vercel.json); it runs every registered job once (lib/engine):
// due messages and retries, event webhooks, launched bulk snapshots' messages, alerts.
export const maxDuration = 60;

const handler = withPublic(async ({ request }) => {
  assertCronAuthorized(request.headers.get("authorization"), process.env.CRON_SECRET);
  const summary = await runCronJobs();
  return json(summary, { headers: { "Cache-Control": "no-store" } });
});

export const GET = handler;
export const POST = handler;
