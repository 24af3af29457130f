// The route handler shared by `POST /api/campaigns/{id}/trigger` and `POST /outbound/{id}`.
import { getDb } from "@/db";
import { assertMayTrigger } from "@/lib/api-keys/scope";
import { dispatchSoon } from "@/lib/messaging";
import { json, methodNotAllowed, runAfterResponse, withWorkspace } from "@/lib/routing/route";
import { pruneIdempotencyKeys } from "./idempotency";
import { pruneRateLimitCounters } from "./rate-limit";
import { RecordedBodyTap, recordTriggerCall, type TriggerCall } from "./requests";
import { triggerCampaign } from "./service";

/** About one accepted request in this many also clears expired counters and idempotency keys. */
const PRUNE_ONE_IN = 1000;

/**
 * `DISPATCHER=off`: this process only accepts; a worker (`npm run worker`) or the cron route sends.
 * Read per request so a test or a restarted process sees the current setting.
 */
export function sendsAfterResponse(): boolean {
  return process.env.DISPATCHER !== "off";
}

export const triggerPost = withWorkspace<{ id: string }>(async ({ request, params, requestId, actor, workspaceId, scope }) => {
  const dryRun = new URL(request.url).searchParams.get("dryRun") === "true";
  // Every call goes to the campaign's request log after the response (no round trip before it). The
  // log keeps what the handler reads of the body (a clone of the request cost a fifth of the
  // handler's CPU); a call refused before its body was read reads it for the log.
  const tap = new RecordedBodyTap();
  const record = (result: TriggerCall["result"]) => {
    const body = tap.recorded();
    runAfterResponse(requestId, "recording the trigger request", () =>
      recordTriggerCall({ workspaceId, campaignId: params.id, actor, requestId, dryRun, body, result }),
    );
  };
  let outcome: Awaited<ReturnType<typeof triggerCampaign>>;
  const db = await getDb();
  try {
    await assertMayTrigger(db, workspaceId, scope, params.id);
    outcome = await triggerCampaign(db, { workspaceId, apiKeyId: actor.id, campaignId: params.id, request, dryRun, onBodyChunk: tap.onChunk });
  } catch (error) {
    await tap.readRest(request);
    record({ error });
    throw error;
  }
  record({ status: outcome.status, body: outcome.body });
  if (outcome.queued) {
    if (sendsAfterResponse()) dispatchSoon();
    if (Math.random() * PRUNE_ONE_IN < 1) {
      runAfterResponse(requestId, "pruning trigger state", async () => {
        await pruneRateLimitCounters(db);
        await pruneIdempotencyKeys(db);
      });
    }
  }
  return json(outcome.body, { status: outcome.status, headers: { ...outcome.headers, "Cache-Control": "no-store" } });
}, { accept: "key", triggerKeys: true });

export const triggerMethodNotAllowed = methodNotAllowed(["POST"]);
