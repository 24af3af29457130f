// The route handler shared by `POST /api/campaigns/{id}/trigger` and `POST /outbound/{id}`.
import { getDb } from "@/db";
import { assertMayTrigger } from "@/lib/api-keys/scope";
import { dispatchSoon } from "@/lib/messaging";
import { json, methodNotAllowed, runAfterResponse, withWorkspace } from "@/lib/http/route";
import { pruneIdempotencyKeys } from "./idempotency";
import { pruneRateLimitCounters } from "./rate-limit";
import { triggerCampaign } from "./service";

/** About one accepted request in this many also clears expired counters and idempotency keys. */
const PRUNE_ONE_IN = 1000;

export const triggerPost = withWorkspace<{ id: string }>(async ({ request, params, requestId, actor, workspaceId, scope }) => {
  const db = await getDb();
  await assertMayTrigger(db, workspaceId, scope, params.id);
  const dryRun = new URL(request.url).searchParams.get("dryRun") === "true";
  const outcome = await triggerCampaign(db, { workspaceId, apiKeyId: actor.id, campaignId: params.id, request, dryRun });
  if (outcome.queued) {
    dispatchSoon();
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
