import { answerChainCall, runCronCall } from "@/lib/engine/chain";
import { CHAIN_TOKEN_HEADER, chainingEnabled } from "@/lib/jobs/chain";
import { originOfRequest } from "@/lib/http/origin";
import { assertCronAuthorized } from "@/lib/messaging/cron";
import { json, withPublic } from "@/lib/routing/route";

// GET (Vercel Cron, daily in vercel.json; any scheduler): every registered job once (lib/engine): due
// messages and retries, event webhooks, launched bulk snapshots' messages, alerts; in serverless mode
// it then starts the dispatch chain if work is left. POST in serverless mode is a hop of that chain
// (lib/jobs/chain.ts): 202 at once, the work after the response; elsewhere POST is the same as GET.
export const maxDuration = 60;

const noStore = { "Cache-Control": "no-store" };

export const GET = withPublic(async ({ request }) => {
  assertCronAuthorized(request.headers.get("authorization"), process.env.CRON_SECRET);
  return json(await runCronCall(originOfRequest(request)), { headers: noStore });
});

export const POST = withPublic(async ({ request }) => {
  const startedAt = Date.now();
  assertCronAuthorized(request.headers.get("authorization"), process.env.CRON_SECRET);
  if (!chainingEnabled()) return json(await runCronCall(originOfRequest(request)), { headers: noStore });
  const { status, body } = await answerChainCall({
    previous: request.headers.get(CHAIN_TOKEN_HEADER),
    requestOrigin: originOfRequest(request),
    startedAt,
    maxDurationS: maxDuration,
  });
  return json(body, { status, headers: noStore });
});
