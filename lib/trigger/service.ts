// The trigger endpoint's work: one request → validated, rendered, stored `queued` messages.
//
// Database round trips for an accepted request (after the API-key lookup, or the signed source's
// lookup for a delivery without a key, which is the first):
//   2. one statement (`loadTriggerContext`, ./context.ts): campaign + template + sender + stored
//      contacts with their opt-out (+ the stored idempotent response when a key is sent), and the
//      rate-limit leases this process needs: a request counts itself with a count its process
//      already holds, so only about one request in `leaseSize(limit)` writes the counters (one in
//      24 for the default key limit, one in 12 for a campaign's); the others' statement 2 only
//      reads, with no commit to flush (an accepted request flushes WAL once, in statement 3);
//   3. one statement: contact upserts + message inserts (+ the idempotency claim), atomic
//      (`enqueueMessages`, lib/outbox: the one door into `messages`).
//   For a journey campaign (./journey.ts), statement 3 upserts the contacts and enters their runs
//   instead (re-entry decided inside it, the claim storing the answers it computes; under a rule
//   that refuses re-entry, in a transaction after one statement locking each (campaign, phone), so
//   that two requests for one contact cannot both enter it: three more round trips); the journey
//   document comes from a per-process cache of its immutable versions (one more statement on a
//   cold cache). When the workspace has journeys (statement 2 says so, by one probe of a partial
//   index of journey campaigns), statement 3 also ends the contacts' runs that exit on this
//   campaign, wakes the ones waiting for it and marks conversions (CTEs through the going-runs
//   contact index), none of it for a workspace without journeys. Only
//   when it ended runs, one more statement skips what they queued (a run the runner held while
//   statement 3 waited for it may have queued a message statement 3's snapshot misses).
// Each mapped field updates an existing contact by its rule (`updateRuleOf`: always, only when
// empty, never), inside statement 3's upsert; a skipped message's request changes nothing on its
// contact (the message still renders with the request's values).
// A campaign with `respect_opt_out` stores a `skipped` message (error `opted_out`) for a contact
// who opted out, and sends nothing for it; the rest of a batch is queued as usual. A frequency cap
// skips the same way with error `frequency_cap`: for a capped campaign statement 3 runs in a
// transaction after a lock per (workspace, phone) and a count of the contacts' messages in the
// period (lib/campaigns/frequency-cap.ts), so two requests for one contact at the same instant take turns.
import { sql } from "drizzle-orm";
import { templateBlockReason } from "@/lib/templates/status";
import type { Executor } from "@/db";
import { newId } from "@/lib/crypto/random";
import { ApiError, notFound, validationFailed, type FieldError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/problem";
import { composeFor, type CampaignSending, type MessageTemplatePayload } from "@/lib/outbox/compose";
import { contactUpserts, enqueueMessagesWith } from "@/lib/outbox/enqueue";
import { updateRuleOf } from "@/lib/campaigns/schemas";
import { lockAndCountCapped, messageSkips } from "@/lib/campaigns/frequency-cap";
import { frequencyCapSchema } from "@/lib/campaigns/send-policy";
import { assertJsonContentType } from "@/lib/http/body";
import { contactEventCtes, EXITED_IDS_SQL } from "@/lib/journeys/contact-events";
import { skipQueuedOfRuns } from "@/lib/journeys/finish";
import { loadTriggerContext, type TriggerContextRow } from "./context";
import { enterJourneyFromTrigger, runLocation } from "./journey";
import { readTriggerBody, triggerBodyFromBytes, type TriggerBody } from "./body";
import { compiledCampaignConfig } from "./campaign-config";
import {
  claimKeySql,
  findStoredResponse,
  headerKey,
  parseIdempotencyKey,
  replayStoredResponse,
  requestFingerprint,
  type IdempotencyKey,
  type StoredResponse,
} from "./idempotency";
import {
  assertWithinRateLimits,
  campaignBucket,
  keyBucket,
  keyRateLimitPerMinute,
  leaseSize,
  processLeases,
  rateLimitHeaders,
  usageOf,
  type RateLimitBucket,
  type LeaseClaim,
  type RateLimitLeases,
  type RateLimitToken,
  type RateLimitUsage,
} from "./rate-limit";
import { checkBodyShape, phoneCandidates, validateTriggerItems } from "./validation";

export interface TriggerRequest {
  workspaceId: string;
  /** The calling key; null for a signed source's delivery (only the campaign's rate limit applies). */
  apiKeyId: string | null;
  campaignId: string;
  request: Request;
  /** `?dryRun=true`: validate and render, store and send nothing. */
  dryRun: boolean;
  /** Sees every chunk of the body as it is read (the request log). */
  onBodyChunk?: (chunk: Uint8Array) => void;
  /**
   * A signed delivery: its bytes, already read and verified, and the key its delivery id gives
   * (null: the sender names none). The Idempotency-Key header is not read.
   */
  preRead?: { raw: Uint8Array; idempotency: IdempotencyKey | null };
  /** The rate-limit counts held (tests: another instance's); the process's own by default. */
  leases?: RateLimitLeases;
}

/** What the accepted response lists for each message. */
export interface AcceptedMessage {
  id: string;
  /** `skipped`: the contact opted out (the campaign respects opt-outs) or is over its frequency cap; nothing is sent. */
  status: "queued" | "skipped";
  campaignId: string;
  phone: string;
  createdAt: string;
  /** Only on skipped messages: why. */
  error?: { code: string; reason: string };
}

/** What a dry run returns for each would-be message. */
export interface DryRunMessage {
  status: "valid";
  campaignId: string;
  phone: string;
  /** The message as the recipient would read it. */
  text: string;
  /** The Cloud API `template` object that would be sent. */
  template: MessageTemplatePayload;
  /** The attributes the message renders from (the stored contact's merged with the request's); what is stored follows each field's update rule. */
  attributes: Record<string, unknown>;
}

export type { MessageTemplatePayload };

export interface TriggerOutcome {
  status: 200 | 202 | number;
  body: unknown;
  headers: Record<string, string>;
  /** Messages were queued: the caller should start dispatching after the response. */
  queued: boolean;
  /** Journey runs entered: the caller should start the runner after the response. */
  enteredRuns?: boolean;
}

export const messageLocation = (messageId: string) => `/api/v1/messages/${messageId}`;

/**
 * Handles one trigger request in the documented order: rate limit → parse → campaign (404) →
 * idempotent replay → active (409) → validate and render (422) → store → 202.
 * Throws ApiError for every refusal; after the rate limit, refusals carry the RateLimit headers.
 */
export async function triggerCampaign(db: Executor, input: TriggerRequest): Promise<TriggerOutcome> {
  // Nothing here touches the database; failures wait until the rate limit has been counted.
  const parsed = await parseRequest(input.request, input.onBodyChunk, input.preRead);
  const idempotencyKey = parsed.ok && !input.dryRun ? parsed.idempotencyKey : null;

  // A count this process already holds for a bucket spares the request its write (./rate-limit.ts).
  const leases = input.leases ?? processLeases;
  const keyPolicy: RateLimitBucket | null = input.apiKeyId ? { policy: "key", bucket: keyBucket(input.apiKeyId), limit: keyRateLimitPerMinute() } : null;
  const campaignPolicyBucket = campaignBucket(input.campaignId);
  const keyHeld = keyPolicy ? await leases.hold(keyPolicy.bucket) : null;
  // Held per workspace: a campaign id named under another workspace's key is no count of this one's.
  const campaignHeld = await leases.hold(`${input.workspaceId}/${campaignPolicyBucket}`);
  const sentAt = Date.now();
  let keyToken: RateLimitToken | null = null;
  let campaignToken: RateLimitToken | null = null;
  let context: TriggerContextRow | undefined;
  try {
    context = await loadTriggerContext(db, {
      workspaceId: input.workspaceId,
      campaignId: input.campaignId,
      keyLease: keyPolicy && isClaim(keyHeld) ? { bucket: keyPolicy.bucket, take: leaseSize(keyPolicy.limit) } : null,
      campaignLease: isClaim(campaignHeld),
      phones: parsed.ok ? phoneCandidates(parsed.items) : [],
      idempotencyKey,
    });
  } finally {
    // Settled whether the statement answered or failed: requests waiting for a claim go on.
    const granted = new Map((context?.leases ?? []).map((row) => [row.bucket, row]));
    if (isClaim(keyHeld)) keyToken = leases.landed(keyHeld, granted.get(keyPolicy!.bucket), sentAt);
    else keyToken = keyHeld;
    if (isClaim(campaignHeld)) campaignToken = leases.landed(campaignHeld, granted.get(campaignPolicyBucket), sentAt);
    else campaignToken = campaignHeld;
  }
  const usage: RateLimitUsage[] = [];
  if (keyPolicy && keyToken) usage.push(usageOf(keyPolicy, keyToken));
  if (context.campaign && campaignToken) {
    usage.push(usageOf({ policy: "campaign", bucket: campaignPolicyBucket, limit: Number(context.campaign.rate_limit_per_minute) }, campaignToken));
  }
  assertWithinRateLimits(usage);
  const limitHeaders = rateLimitHeaders(usage);

  try {
    if (!parsed.ok) throw parsed.error;
    const outcome = await processTrigger(db, input, parsed, context, idempotencyKey);
    return { ...outcome, headers: { ...limitHeaders, ...outcome.headers } };
  } catch (error) {
    throw withExtraHeaders(error, limitHeaders, usage);
  }
}

const isClaim = (held: RateLimitToken | LeaseClaim | null): held is LeaseClaim => held !== null && "bucket" in held;

type ParsedRequest =
  | { ok: true; body: TriggerBody; items: Record<string, unknown>[]; isBatch: boolean; idempotencyKey: IdempotencyKey | null }
  | { ok: false; error: unknown };

async function parseRequest(request: Request, onBodyChunk?: (chunk: Uint8Array) => void, preRead?: TriggerRequest["preRead"]): Promise<ParsedRequest> {
  try {
    let idempotencyKey: IdempotencyKey | null;
    let body: TriggerBody;
    if (preRead) {
      idempotencyKey = preRead.idempotency;
      assertJsonContentType(request);
      body = triggerBodyFromBytes(preRead.raw);
    } else {
      const header = parseIdempotencyKey(request.headers);
      idempotencyKey = header === null ? null : headerKey(header);
      body = await readTriggerBody(request, onBodyChunk);
    }
    const shape = checkBodyShape(body.value);
    if ("errors" in shape) throw validationFailed(shape.errors, "The body must be a JSON object or an array of 1 to 100 objects.");
    return { ok: true, body, items: shape.items, isBatch: shape.isBatch, idempotencyKey };
  } catch (error) {
    return { ok: false, error };
  }
}

async function processTrigger(
  db: Executor,
  input: TriggerRequest,
  parsed: Extract<ParsedRequest, { ok: true }>,
  context: TriggerContextRow,
  idempotencyKey: IdempotencyKey | null,
): Promise<TriggerOutcome> {
  const campaign = context.campaign;
  if (!campaign) throw notFound("No campaign with this id exists in the API key's workspace.");

  // Only a request with an Idempotency-Key needs the body's fingerprint (to replay, or to refuse another body).
  const requestHash = () => requestFingerprint(parsed.body.raw);
  if (idempotencyKey && context.stored) {
    const stored = { requestHash: context.stored.request_hash, status: Number(context.stored.response_status), body: context.stored.response_body };
    return replay(stored, idempotencyKey.sameBodyRequired ? requestHash() : stored.requestHash);
  }

  if (campaign.kind !== "trigger") {
    throw new ApiError("not_a_trigger_campaign", "This is a bulk campaign; only trigger campaigns accept trigger requests. Nothing was sent.");
  }
  if (campaign.status !== "active") {
    throw new ApiError(
      "campaign_not_active",
      `The campaign is ${campaign.status}; only active campaigns accept trigger requests. Nothing was sent.${
        campaign.status === "draft" ? " Deploy it first." : campaign.status === "paused" ? " Resume it first." : ""
      }`,
      { extensions: { campaignStatus: campaign.status } },
    );
  }
  if (campaign.has_journey) return journeyTrigger(db, input, parsed, context, idempotencyKey, requestHash);
  const template = context.template;
  if (!template || template.status !== "APPROVED" || !context.sender) {
    throw new ApiError(
      "campaign_not_sendable",
      !context.sender
        ? "The workspace has no sender configured. Nothing was sent."
        : template
          ? `${templateBlockReason(template)} Nothing was sent.`
          : "The campaign's template no longer exists. Pick another template. Nothing was sent.",
    );
  }

  const { triggerConfig, messageConfig, itemSchema } = compiledCampaignConfig(campaign);
  const validated = validateTriggerItems(triggerConfig, parsed.items, parsed.isBatch, itemSchema);
  if (!validated.ok) throw validationFailed(validated.errors);

  const stored = new Map(context.contacts.map((contact) => [contact.phone, contact]));
  const sending: CampaignSending = { workspaceId: input.workspaceId, campaignId: campaign.id, senderId: context.sender.id, template, messageConfig };
  const renderErrors: FieldError[] = [];
  const rendered = validated.items.map((item, index) => {
    const composed = composeFor(sending, { phone: item.phone, contact: stored.get(item.phone), incoming: item.attributes });
    if (!composed.ok) {
      renderErrors.push(...unrenderableErrors(composed.missing, triggerConfig, (field) => formatPath([...(parsed.isBatch ? [index] : []), ...(field ? [field] : [])])));
      return null;
    }
    return { item, draft: composed.draft };
  });
  if (renderErrors.length > 0) throw validationFailed(renderErrors, "A template variable has no value for this request.");
  const messages = rendered.filter((m) => m !== null);

  if (input.dryRun) {
    const data: DryRunMessage[] = messages.map((m) => ({
      status: "valid",
      campaignId: campaign.id,
      phone: m.item.phone,
      text: m.draft.renderedText,
      template: m.draft.payload.template,
      attributes: m.draft.attributes,
    }));
    return { status: 200, body: parsed.isBatch ? { dryRun: true, data } : { dryRun: true, ...data[0] }, headers: {}, queued: false };
  }

  const createdAt = new Date();
  const cap = campaign.frequency_cap ? frequencyCapSchema.safeParse(campaign.frequency_cap) : null;
  /** Decides each message's skip (`counted`: what each contact got in the cap's period) and stores them. */
  const store = async (tx: Executor, counted: Map<string, number>) => {
    const skips = messageSkips(
      messages.map((m) => m.item.phone),
      { stored, respectOptOut: campaign.respect_opt_out, cap: cap?.success ? cap.data : null, counted },
    );
    const accepted: AcceptedMessage[] = messages.map((m, i) => {
      const skip = skips[i];
      return {
        id: newId("msg"),
        status: skip ? "skipped" : "queued",
        campaignId: campaign.id,
        phone: m.item.phone,
        createdAt: createdAt.toISOString(),
        ...(skip ? { error: { code: skip.errorCode, reason: skip.errorReason } } : {}),
      };
    });
    const body = parsed.isBatch ? { data: accepted } : accepted[0]!;
    // Round trip 3: contact upserts and message inserts (+ the idempotency claim) in one statement.
    const { inserted, also: exited } = await enqueueMessagesWith(tx, {
      workspaceId: input.workspaceId,
      campaignId: campaign.id,
      apiKeyId: input.apiKeyId,
      contacts: contactUpserts(
        validated.items.map((item, i) => ({ ...item, skipped: skips[i] !== null })),
        Object.fromEntries(triggerConfig.fields.map((f) => [f.attribute, updateRuleOf(f)])),
      ),
      fillWhenEmpty: triggerConfig.fields.filter((f) => updateRuleOf(f) === "when_empty").map((f) => f.attribute),
      messages: messages.map((m, i) => ({ id: accepted[i]!.id, draft: m.draft, skip: skips[i] })),
      createdAt,
      // The campaign's trigger is an event for its contacts' runs of other journeys (exits, waits, goals).
      also: context.has_journeys
        ? {
            ctes: contactEventCtes({ workspaceId: input.workspaceId, token: `campaign:${campaign.id}`, contactIds: sql`select id from upserted`, reason: exitReason(campaign.id) }),
            select: EXITED_IDS_SQL,
          }
        : null,
      claim: idempotencyKey ? claimKeySql({ campaignId: campaign.id, key: idempotencyKey, requestHash: requestHash(), status: 202, body }) : null,
    });
    return { accepted, body, inserted, exited };
  };
  // A capped campaign counts and stores under a lock per contact (lib/campaigns/frequency-cap.ts): four more round trips.
  const { accepted, body, inserted, exited } = cap?.success
    ? await db.transaction(async (tx) =>
        store(tx, await lockAndCountCapped(tx, { workspaceId: input.workspaceId, campaignId: campaign.id, cap: cap.data, phones: messages.map((m) => m.item.phone) })),
      )
    : await store(db, new Map());
  // Runs the statement waited for (the runner held them) may have queued a message its snapshot missed.
  if (Array.isArray(exited) && exited.length > 0) await skipQueuedOfRuns(db, exited as string[], "exited", exitReason(campaign.id));
  if (inserted === 0 && idempotencyKey) return lostClaim(db, campaign.id, idempotencyKey, requestHash);
  return {
    status: 202,
    body,
    headers: parsed.isBatch ? {} : { Location: messageLocation(accepted[0]!.id) },
    queued: accepted.some((m) => m.status === "queued"),
  };
}

/** Why a run exits on this campaign's trigger. */
export const exitReason = (campaignId: string) => `The campaign ${campaignId} was triggered for the contact.`;

/** A journey campaign's request: runs enter (./journey.ts); their steps send. */
async function journeyTrigger(
  db: Executor,
  input: TriggerRequest,
  parsed: Extract<ParsedRequest, { ok: true }>,
  context: TriggerContextRow,
  idempotencyKey: IdempotencyKey | null,
  requestHash: () => string,
): Promise<TriggerOutcome> {
  const result = await enterJourneyFromTrigger(db, {
    workspaceId: input.workspaceId,
    campaign: context.campaign!,
    context,
    items: parsed.items,
    isBatch: parsed.isBatch,
    dryRun: input.dryRun,
    idempotencyKey,
    requestHash,
  });
  if (result.kind === "dry_run") return { status: 200, body: result.body, headers: {}, queued: false };
  if (result.kind === "claim_lost") return lostClaim(db, context.campaign!.id, idempotencyKey!, requestHash);
  const single = parsed.isBatch ? null : result.answers[0]!;
  return {
    status: 202,
    body: result.body,
    headers: single && single.status === "active" ? { Location: runLocation(single.id) } : {},
    // The runner takes the first steps right after the response; it asks for the dispatch when it queued messages.
    queued: false,
    enteredRuns: result.answers.some((a) => a.status === "active"),
  };
}

/** A concurrent request with the same key won the claim: answer with what it stored. */
async function lostClaim(db: Executor, campaignId: string, idempotencyKey: IdempotencyKey, requestHash: () => string): Promise<TriggerOutcome> {
  const winner = await findStoredResponse(db, campaignId, idempotencyKey);
  if (winner) return replay(winner, idempotencyKey.sameBodyRequired ? requestHash() : winner.requestHash);
  throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is being processed. Retry shortly.", { headers: { "Retry-After": "1" } });
}

/**
 * The 422 errors of a message whose template variables have no value: each at the request field
 * that feeds its attribute (`pathOf(field)`; `pathOf(undefined)` when no field does).
 */
export function unrenderableErrors(
  missing: { key: string; attribute: string | null }[],
  triggerConfig: { fields: { field: string; attribute: string }[] },
  pathOf: (field: string | undefined) => string,
): FieldError[] {
  return missing.map(({ key, attribute }) => ({
    path: pathOf(triggerConfig.fields.find((f) => f.attribute === attribute)?.field),
    code: "unrenderable_variable",
    message: attribute
      ? `The template variable ${key} needs the attribute "${attribute}": send it, or give the variable a fallback.`
      : `The template variable ${key} has no attribute and no fallback.`,
  }));
}

function replay(stored: StoredResponse, requestHash: string): TriggerOutcome {
  const again = replayStoredResponse(stored, requestHash);
  const single = again.body as { id?: unknown; object?: string; status?: string } | null;
  const location: Record<string, string> =
    single && typeof single.id === "string"
      ? single.object === "journey_run"
        ? single.status === "active" ? { Location: runLocation(single.id) } : {}
        : { Location: messageLocation(single.id) }
      : {};
  return { status: again.status, body: again.body, headers: { ...again.headers, ...location }, queued: false };
}

/** Adds the RateLimit headers to a refusal; anything that is not an ApiError is rethrown as is (and logged as a 500). */
function withExtraHeaders(error: unknown, headers: Record<string, string>, usage: RateLimitUsage[]): unknown {
  if (!(error instanceof ApiError) || usage.length === 0) return error;
  return error.withHeaders(headers);
}
