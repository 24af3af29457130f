// Delivering events: claim due deliveries (a 60 s lease, like messages: a process that dies
// mid-request leaves them to be tried again), render and sign the event's body, POST it, record
// the answer. A 2xx answer succeeds; anything else is retried on RETRY_DELAYS_MS (about 24 hours in
// all); a delivery that fails its last attempt switches its endpoint off unless the endpoint
// succeeded since, and 410 Gone switches it off at once. Delivery is at least once: receivers
// drop repeats by the `webhook-id` header.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, newestFirst } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { notices, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDeliveryStatus, type WebhookEventType } from "@/db/schema";
import { notifyOwners } from "@/lib/alerts/notify";
import { loadAlertSettings } from "@/lib/alerts/settings";
import { recordAudit, SYSTEM_ACTOR } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { decryptSecret } from "@/lib/crypto/secrets";
import { ApiError, badRequest, notFound } from "@/lib/http/errors";
import { describeError } from "@/lib/logging";
import { privateUrlsAllowed } from "@/lib/http/public-address";
import { renderEventBody, withInboundLinks } from "./events";
import { DeliveryError, postJson, type PostResult } from "@/lib/http/post-json";
import { ENDPOINT_NOT_FOUND, TEST_ENDPOINT_URL, type DeliveryPage, type WebhookDeliveryView } from "./schemas";
import { recordTestReceipt, TEST_ENDPOINT_ANSWER } from "./test-endpoint";
import { signedHeaders } from "./signing";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before each retry; the last attempt comes about 23.7 hours after the first. */
export const RETRY_DELAYS_MS = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const LEASE_SECONDS = 60;
const CLAIM_BATCH = 50;
const CONCURRENCY = 8;

export interface WebhookPassOptions {
  /** Stop claiming after this long (default 10 s). */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** Only these workspaces' deliveries (tests). */
  workspaceIds?: string[];
  allowPrivate?: boolean;
  timeoutMs?: number;
}

export interface WebhookPassSummary {
  attempted: number;
  succeeded: number;
  /** Attempts that failed (retried later or, after the last, failed for good). */
  failed: number;
}

interface ClaimedDelivery {
  id: string;
  attempts: number;
  created_at: string;
  endpoint_id: string;
  url: string;
  secret_encrypted: string;
  event_id: string;
  type: WebhookEventType;
  snapshot: Record<string, unknown> | string;
  body: string | null;
  event_created_at: string;
}

function claimSql(limit: number, workspaceIds: string[] | undefined) {
  const scope = workspaceIds ? sql`and d.workspace_id in (${sql.join(workspaceIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  return sql`
    with due as (
      select d.id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
      where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now()) ${scope}
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d
    set locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1, updated_at = now()
    from due, webhook_endpoints e, webhook_events ev
    where d.id = due.id and e.id = d.endpoint_id and ev.id = d.event_id
    returning d.id, d.attempts, d.created_at::text as created_at, e.id as endpoint_id, e.url, e.secret_encrypted,
      ev.id as event_id, ev.type, ev.snapshot, ev.body, ev.created_at::text as event_created_at`;
}

/** Delivers what is due until nothing is, the deadline passes or the signal aborts. */
export async function deliverDueWebhooks(db: Executor, options: WebhookPassOptions = {}): Promise<WebhookPassSummary> {
  const summary: WebhookPassSummary = { attempted: 0, succeeded: 0, failed: 0 };
  const deadline = Date.now() + (options.deadlineMs ?? 10 * SECOND);
  const allowPrivate = options.allowPrivate ?? privateUrlsAllowed();
  while (Date.now() < deadline && !options.signal?.aborted) {
    const claimed = await queryRows<ClaimedDelivery>(db, claimSql(CLAIM_BATCH, options.workspaceIds));
    if (claimed.length === 0) break;
    const queue = [...claimed];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const ok = await attempt(db, next, { allowPrivate, timeoutMs: options.timeoutMs });
          summary.attempted += 1;
          if (ok) summary.succeeded += 1;
          else summary.failed += 1;
        }
      }),
    );
  }
  return summary;
}

/** The event's body, rendered once and kept, so every attempt and every endpoint signs the same bytes. */
async function eventBody(db: Executor, delivery: ClaimedDelivery): Promise<string> {
  if (delivery.body !== null) return delivery.body;
  const stored = typeof delivery.snapshot === "string" ? (JSON.parse(delivery.snapshot) as Record<string, unknown>) : delivery.snapshot;
  const snapshot = delivery.type === "message.received" ? await withInboundLinks(db, stored) : stored;
  const body = renderEventBody({ id: delivery.event_id, type: delivery.type, createdAt: new Date(delivery.event_created_at), snapshot });
  const [kept] = await queryRows<{ body: string }>(
    db,
    sql`update webhook_events set body = coalesce(body, ${body}) where id = ${delivery.event_id} returning body`,
  );
  return kept?.body ?? body;
}

async function attempt(db: Executor, delivery: ClaimedDelivery, options: { allowPrivate: boolean; timeoutMs?: number }): Promise<boolean> {
  let result: PostResult | null = null;
  let error: string | null = null;
  let ms: number | null = null;
  try {
    const body = await eventBody(db, delivery);
    const headers = signedHeaders(decryptSecret(delivery.secret_encrypted), { id: delivery.event_id, timestamp: Math.floor(Date.now() / 1000), body });
    if (delivery.url === TEST_ENDPOINT_URL) {
      // The built-in test endpoint: recorded as received, never sent anywhere.
      const started = Date.now();
      await recordTestReceipt(db, { endpointId: delivery.endpoint_id, eventId: delivery.event_id, eventType: delivery.type, headers, body });
      result = { status: 200, body: TEST_ENDPOINT_ANSWER, ms: Date.now() - started };
    } else {
      result = await postJson(delivery.url, headers, body, options);
    }
    ms = result.ms;
  } catch (caught) {
    error = caught instanceof DeliveryError ? caught.message : describeError(caught);
    ms = caught instanceof DeliveryError ? caught.ms : null;
  }
  const succeeded = result !== null && result.status >= 200 && result.status < 300;
  if (!succeeded && !error) error = `The endpoint answered ${result!.status}; only a 2xx answer counts as delivered.`;
  const gone = result?.status === 410;
  const last = gone || delivery.attempts >= MAX_ATTEMPTS;
  const status: WebhookDeliveryStatus = succeeded ? "succeeded" : last ? "failed" : "pending";
  const retryInMs = RETRY_DELAYS_MS[delivery.attempts - 1] ?? 0;
  await db.execute(sql`
    update webhook_deliveries set
      status = ${status},
      locked_until = null,
      last_attempt_at = now(),
      next_attempt_at = case when ${status} = 'pending' then now() + make_interval(secs => ${retryInMs / 1000}) else next_attempt_at end,
      response_status = ${result?.status ?? null},
      response_ms = ${ms},
      response_body = ${result?.body ?? null},
      error = ${succeeded ? null : error},
      updated_at = now()
    where id = ${delivery.id}`);
  if (gone) await disableEndpoint(db, delivery.endpoint_id, "The endpoint answered 410 Gone, which asks for its deliveries to stop.");
  else if (status === "failed") await disableIfFailingSince(db, delivery);
  return succeeded;
}

/** The last attempt failed: switch the endpoint off unless it has succeeded since this delivery began. */
async function disableIfFailingSince(db: Executor, delivery: ClaimedDelivery): Promise<void> {
  const [recent] = await queryRows<{ ok: boolean }>(
    db,
    sql`select exists (
      select 1 from webhook_deliveries
      where endpoint_id = ${delivery.endpoint_id} and status = 'succeeded' and last_attempt_at >= ${delivery.created_at}::timestamptz
    ) as ok`,
  );
  if (recent?.ok) return;
  await disableEndpoint(db, delivery.endpoint_id, `Every delivery failed for ${Math.round(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / HOUR)} hours; deliveries wait until it is switched on again.`);
}

/**
 * Switches an endpoint off for good reason: audited, and an alert for the owners (the banner on
 * every page, email and Slack as configured) until someone switches it on again or deletes it.
 */
async function disableEndpoint(db: Executor, endpointId: string, reason: string): Promise<void> {
  const notice = await db.transaction(async (tx) => {
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
      .returning({ workspaceId: webhookEndpoints.workspaceId, url: webhookEndpoints.url });
    if (!disabled) return null;
    await recordAudit(tx, {
      workspaceId: disabled.workspaceId,
      actor: SYSTEM_ACTOR,
      action: "webhook_endpoint.disabled",
      targetType: "webhook_endpoint",
      targetId: endpointId,
      metadata: { url: disabled.url, reason },
    });
    const opened = {
      id: newId("ntc"),
      workspaceId: disabled.workspaceId,
      kind: "webhook_endpoint_disabled" as const,
      subjectId: endpointId,
      title: `Webhook endpoint switched off: ${disabled.url === TEST_ENDPOINT_URL ? "built-in test endpoint" : new URL(disabled.url).host}`,
      detail: reason,
      href: `/settings/webhooks/${endpointId}`,
    };
    const [inserted] = await tx.insert(notices).values(opened).onConflictDoNothing().returning({ id: notices.id });
    return inserted ? opened : null;
  });
  if (notice) {
    const settings = await loadAlertSettings(db, [notice.workspaceId]);
    await notifyOwners(db, notice, settings.get(notice.workspaceId)!);
  }
}

/** The endpoint was switched on again or deleted: its alert is over. */
export async function resolveEndpointNotice(db: Executor, workspaceId: string, endpointId: string): Promise<void> {
  await db
    .update(notices)
    .set({ resolvedAt: sql`now()` })
    .where(and(eq(notices.workspaceId, workspaceId), eq(notices.kind, "webhook_endpoint_disabled"), eq(notices.subjectId, endpointId), isNull(notices.resolvedAt)));
}

/** Events and their deliveries older than this are deleted. */
const RETENTION_DAYS = 30;

export async function pruneWebhookHistory(db: Executor): Promise<void> {
  await db.execute(sql`delete from webhook_events where created_at < now() - make_interval(days => ${RETENTION_DAYS})`);
  await db.execute(sql`delete from webhook_test_receipts where received_at < now() - make_interval(days => ${RETENTION_DAYS})`);
}

// ---- The delivery log, resend and test events ----------------------------------------------------

const DELIVERY_NOT_FOUND = "No delivery with this id exists for this endpoint.";
export const DELIVERY_PAGE_SIZE = 25;

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  responseStatus: webhookDeliveries.responseStatus,
  responseMs: webhookDeliveries.responseMs,
  responseBody: webhookDeliveries.responseBody,
  error: webhookDeliveries.error,
  body: webhookEvents.body,
  createdAt: webhookDeliveries.createdAt,
  position: cursorTimestamp(webhookDeliveries.createdAt),
};

interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  responseMs: number | null;
  responseBody: string | null;
  error: string | null;
  body: string | null;
  createdAt: Date;
}

function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    responseStatus: row.responseStatus,
    responseMs: row.responseMs,
    responseBody: row.responseBody,
    error: row.error,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An endpoint of the workspace, or 404 (another workspace's endpoint is invisible). */
async function endpointOf(db: Executor, workspaceId: string, endpointId: string): Promise<{ id: string; enabled: boolean }> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id, enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)));
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return endpoint;
}

/** The endpoint's deliveries, newest first, in keyset pages. */
export async function listWebhookDeliveries(
  db: Executor,
  workspaceId: string,
  endpointId: string,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<DeliveryPage> {
  await endpointOf(db, workspaceId, endpointId);
  const limit = Math.min(Math.max(options.limit ?? DELIVERY_PAGE_SIZE, 1), 100);
  const cursor = options.cursor ? decodeCursor(options.cursor, { id: /^whd_/ }) : null;
  if (options.cursor && (!cursor || cursor.direction !== "older")) throw badRequest("The cursor is not valid; start from the first page.");
  const rows = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), cursor ? keysetCondition(webhookDeliveries, cursor) : sql`true`))
    .orderBy(...newestFirst(webhookDeliveries.createdAt, webhookDeliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toDeliveryView),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id, direction: "older" }) : null,
  };
}

async function getDelivery(db: Executor, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  if (!row) throw notFound(DELIVERY_NOT_FOUND);
  return toDeliveryView(row);
}

function assertEnabled(endpoint: { enabled: boolean }): void {
  if (!endpoint.enabled) throw new ApiError("webhook_endpoint_disabled", "The endpoint is switched off. Switch it on first; deliveries waiting for it go out then.");
}

const newDeliveryId = () => newId("whd");

/** The same event (same id, same body) to the same endpoint once more, as a new delivery due now. */
export async function resendWebhookDelivery(db: Executor, workspaceId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  assertEnabled(await endpointOf(db, workspaceId, endpointId));
  const [original] = await db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  if (!original) throw notFound(DELIVERY_NOT_FOUND);
  const id = newDeliveryId();
  await db.insert(webhookDeliveries).values({ id, workspaceId, endpointId, eventId: original.eventId });
  return getDelivery(db, endpointId, id);
}

/** A `webhook.test` event to this endpoint alone, queued like any other. */
export async function sendTestWebhookEvent(db: Executor, workspaceId: string, endpointId: string): Promise<WebhookDeliveryView> {
  assertEnabled(await endpointOf(db, workspaceId, endpointId));
  const eventId = newId("evt");
  const id = newDeliveryId();
  await db.transaction(async (tx) => {
    await tx.insert(webhookEvents).values({
      id: eventId,
      workspaceId,
      type: "webhook.test",
      snapshot: { endpointId, message: "A test event from Sendstream: the endpoint is reachable and the signature can be verified." },
    });
    await tx.insert(webhookDeliveries).values({ id, workspaceId, endpointId, eventId });
  });
  return getDelivery(db, endpointId, id);
}
