// The route handler shared by `POST /api/campaigns/{id}/trigger` and `POST /outbound/{id}`.
import { getDb, type Executor } from "@/db";
import { assertMayTrigger } from "@/lib/api-keys/scope";
import { ApiError } from "@/lib/http/errors";
import { runJobsSoon } from "@/lib/jobs/soon";
import { JOURNEY_STEPS_JOB } from "@/lib/journeys/jobs";
import { dispatchSoon } from "@/lib/messaging";
import { json, methodNotAllowed, runAfterResponse, withWorkspace, type BaseContext } from "@/lib/routing/route";
import { SOURCE_KIND_LABELS } from "@/lib/sources/kinds";
import { loadSignedSource, topicTaken, type SignedSource } from "@/lib/sources/service";
import { verifyDelivery } from "@/lib/sources/signatures";
import { readRawTriggerBody } from "./body";
import { deliveryKey, pruneIdempotencyKeys } from "./idempotency";
import { pruneRateLimitCounters } from "./rate-limit";
import { RecordedBodyTap, recordTriggerCall, type TriggerCall, type TriggerCallSource } from "./requests";
import { triggerCampaign, type TriggerOutcome } from "./service";

/** About one accepted request in this many also clears expired counters and idempotency keys. */
const PRUNE_ONE_IN = 1000;

/**
 * `DISPATCHER=off`: this process only accepts; a worker (`npm run worker`) or the cron route sends.
 * Read per request so a test or a restarted process sees the current setting.
 */
export function sendsAfterResponse(): boolean {
  return process.env.DISPATCHER !== "off";
}

const isDryRun = (request: Request) => new URL(request.url).searchParams.get("dryRun") === "true";

export const triggerPost = withWorkspace<{ id: string }>(async ({ request, params, requestId, actor, workspaceId, scope }) => {
  const dryRun = isDryRun(request);
  // Every call goes to the campaign's request log after the response (no round trip before it). The
  // log keeps what the handler reads of the body (a clone of the request cost a fifth of the
  // handler's CPU); a call refused before its body was read reads it for the log.
  const tap = new RecordedBodyTap();
  const record = recorder(tap, () => ({ workspaceId, campaignId: params.id, actor, requestId, dryRun }));
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
  return answer(db, requestId, outcome);
}, { accept: "key", triggerKeys: true, withoutKey: signedDelivery });

/**
 * Records a call in the campaign's request log after the response (no round trip before it), with
 * what the handler read of the body; `call` is read when the answer is known.
 */
function recorder(tap: RecordedBodyTap, call: () => Omit<TriggerCall, "body" | "result" | "ignoredReason">) {
  return (result: TriggerCall["result"], ignoredReason: string | null = null) => {
    const entry: TriggerCall = { ...call(), body: tap.recorded(), result, ignoredReason };
    runAfterResponse(entry.requestId, "recording the trigger request", () => recordTriggerCall(entry));
  };
}

function answer(db: Executor, requestId: string, outcome: TriggerOutcome): Response {
  if (outcome.enteredRuns && sendsAfterResponse()) runJobsSoon([JOURNEY_STEPS_JOB]);
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
}

/**
 * A call without an API key, for a campaign with a signed source (round trip 1 loads it): the raw
 * body is read once and verified, then triggers as a key call would (round trips 2 and 3), its
 * delivery id as the idempotency key. Null (no signed source) → the wrapper's usual 401.
 */
async function signedDelivery({ request, params, requestId }: BaseContext<{ id: string }>): Promise<Response | null> {
  const db = await getDb();
  const source = await loadSignedSource(db, params.id);
  if (!source) return null;
  const dryRun = isDryRun(request);
  const tap = new RecordedBodyTap();
  let delivery: TriggerCallSource = { kind: source.kind, topic: null, deliveryId: null };
  const record = recorder(tap, () => ({
    workspaceId: source.workspaceId,
    campaignId: source.campaignId,
    actor: { type: "source", id: source.kind },
    requestId,
    dryRun,
    source: delivery,
  }));
  try {
    const raw = await readRawTriggerBody(request, tap.onChunk);
    const verified = verifyDelivery(source.kind, { raw, headers: request.headers, secrets: source.secrets, now: new Date() });
    if (!verified.ok) throw new ApiError("invalid_signature", verified.detail);
    delivery = { kind: source.kind, topic: verified.topic, deliveryId: verified.deliveryId };
    const ignored = verified.ping ? PING_REASON : ignoredTopicReason(source, verified.topic);
    if (ignored) {
      const status = verified.ping ? 200 : 202;
      const body = { status: "ignored", reason: ignored };
      record({ status, body }, ignored);
      return json(body, { status, headers: { "Cache-Control": "no-store" } });
    }
    const outcome = await triggerCampaign(db, {
      workspaceId: source.workspaceId,
      apiKeyId: null,
      campaignId: source.campaignId,
      request,
      dryRun,
      preRead: { raw, idempotency: verified.deliveryId ? deliveryKey(verified.deliveryId) : null },
    });
    record({ status: outcome.status, body: outcome.body });
    return answer(db, requestId, outcome);
  } catch (error) {
    await tap.readRest(request);
    record({ error });
    throw error;
  }
}

const PING_REASON = "WooCommerce's ping for a new webhook: answered so the shop saves the webhook. Nothing was sent.";

/** Why a delivery's topic is not taken, or null when it is. */
function ignoredTopicReason(source: SignedSource, topic: string | null): string | null {
  if (topicTaken(source.topics, topic)) return null;
  const taken = source.topics.join(", ");
  return topic === null
    ? `This ${SOURCE_KIND_LABELS[source.kind]} delivery names no topic and the campaign takes only ${taken}. Nothing was sent.`
    : `The campaign takes only ${taken}; this delivery's topic is ${topic}. Nothing was sent.`;
}

export const triggerMethodNotAllowed = methodNotAllowed(["POST"]);
