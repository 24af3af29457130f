// Event webhook endpoints of a workspace: register (the secret is returned once), change, switch
// off and on, roll the secret, delete. Each change writes its audit row in the same transaction.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { webhookEndpoints } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { encryptSecret } from "@/lib/crypto/secrets";
import { ApiError, notFound } from "@/lib/http/errors";
import { assertStorableUrl } from "@/lib/http/public-address";
import {
  createWebhookEndpointSchema,
  ENDPOINT_NOT_FOUND,
  SWITCHED_OFF_BY_USER,
  TEST_ENDPOINT_URL,
  updateWebhookEndpointSchema,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
  type SubscribableEventType,
} from "./schemas";
import { resolveEndpointNotice } from "./deliveries";
import { generateSigningSecret } from "./signing";

/** More than any workspace needs; each event fans out to every subscribed endpoint. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  disabledAt: webhookEndpoints.disabledAt,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
  pending: sql<number>`(select count(*)::int from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id and d.status = 'pending')`,
  failedLastWeek: sql<number>`(select count(*)::int from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id and d.status = 'failed' and d.updated_at > now() - interval '7 days')`,
};

type ViewRow = Pick<EndpointRow, "id" | "url" | "description" | "events" | "enabled" | "disabledReason" | "disabledAt" | "createdAt" | "updatedAt"> & {
  pending: number;
  failedLastWeek: number;
};

function toView(row: ViewRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as SubscribableEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    pending: Number(row.pending),
    failedLastWeek: Number(row.failedLastWeek),
  };
}

export async function listWebhookEndpoints(db: Executor, workspaceId: string): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return rows.map(toView);
}

export async function getWebhookEndpoint(db: Executor, workspaceId: string, endpointId: string): Promise<WebhookEndpointView> {
  const [row] = await db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)));
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return toView(row);
}

export async function createWebhookEndpoint(db: Executor, workspaceId: string, actor: AuditActor, input: unknown): Promise<WebhookEndpointWithSecret> {
  const { url, description, events } = createWebhookEndpointSchema.parse(input);
  if (url !== TEST_ENDPOINT_URL) await assertStorableUrl(url, "url");
  const id = newId("whe");
  const secret = generateSigningSecret();
  await db.transaction(async (tx) => {
    const [counted] = await tx.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
    if (Number(counted?.n ?? 0) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new ApiError("webhook_endpoint_limit_reached", `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints. Delete one you no longer use first.`);
    }
    await tx.insert(webhookEndpoints).values({ id, workspaceId, url, description, events, secretEncrypted: encryptSecret(secret), createdBy: actor.userId });
    await recordAudit(tx, { workspaceId, actor, action: "webhook_endpoint.created", targetType: "webhook_endpoint", targetId: id, metadata: { url, events } });
  });
  return { endpoint: await getWebhookEndpoint(db, workspaceId, id), secret };
}

export async function updateWebhookEndpoint(db: Executor, workspaceId: string, actor: AuditActor, endpointId: string, input: unknown): Promise<WebhookEndpointView> {
  const patch = updateWebhookEndpointSchema.parse(input);
  if (patch.url !== undefined && patch.url !== TEST_ENDPOINT_URL) await assertStorableUrl(patch.url, "url");
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...patch,
        ...(patch.enabled === true ? { disabledReason: null, disabledAt: null } : {}),
        ...(patch.enabled === false ? { disabledReason: SWITCHED_OFF_BY_USER, disabledAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
      .returning({ id: webhookEndpoints.id });
    if (!updated) throw notFound(ENDPOINT_NOT_FOUND);
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: patch.enabled === false ? "webhook_endpoint.disabled" : patch.enabled === true ? "webhook_endpoint.enabled" : "webhook_endpoint.updated",
      targetType: "webhook_endpoint",
      targetId: endpointId,
      metadata: { changed: Object.keys(patch), ...(patch.url ? { url: patch.url } : {}), ...(patch.events ? { events: patch.events } : {}) },
    });
    if (patch.enabled === true) await resolveEndpointNotice(tx, workspaceId, endpointId);
  });
  return getWebhookEndpoint(db, workspaceId, endpointId);
}

/** A new secret; the old one stops signing at once. */
export async function rollWebhookSecret(db: Executor, workspaceId: string, actor: AuditActor, endpointId: string): Promise<WebhookEndpointWithSecret> {
  const secret = generateSigningSecret();
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ secretEncrypted: encryptSecret(secret), updatedAt: sql`now()` })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
      .returning({ id: webhookEndpoints.id });
    if (!updated) throw notFound(ENDPOINT_NOT_FOUND);
    await recordAudit(tx, { workspaceId, actor, action: "webhook_endpoint.secret_rolled", targetType: "webhook_endpoint", targetId: endpointId });
  });
  return { endpoint: await getWebhookEndpoint(db, workspaceId, endpointId), secret };
}

/** Deletes the endpoint and its delivery log; deliveries not yet made are dropped with it. */
export async function deleteWebhookEndpoint(db: Executor, workspaceId: string, actor: AuditActor, endpointId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    if (!deleted) throw notFound(ENDPOINT_NOT_FOUND);
    await resolveEndpointNotice(tx, workspaceId, endpointId);
    await recordAudit(tx, { workspaceId, actor, action: "webhook_endpoint.deleted", targetType: "webhook_endpoint", targetId: endpointId, metadata: { url: deleted.url } });
  });
}
