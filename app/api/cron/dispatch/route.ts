import { dispatchDue } from "@/lib/messaging";
import { assertCronAuthorized } from "@/lib/messaging/cron";
import { json, withPublic } from "@/lib/http/route";

// Vercel Cron calls this every minute (vercel.json); it drains due messages and retries.
export const maxDuration = 60;

const handler = withPublic(async ({ request }) => {
  assertCronAuthorized(request.headers.get("authorization"), process.env.CRON_SECRET);
  const summary = await dispatchDue({ deadlineMs: 45_000 });
  return json(summary, { headers: { "Cache-Control": "no-store" } });
});

export const GET = handler;
export const POST = handler;
