import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/event-webhooks/endpoints";

const noStore = { "Cache-Control": "no-store" };

export const GET = withWorkspace(async ({ workspaceId }) => {
  return json({ data: await listWebhookEndpoints(await getDb(), workspaceId) }, { headers: noStore });
}, adminsOnly);

/** Registers an endpoint; the response is the only time its signing secret is returned. */
export const POST = withWorkspace(async ({ request, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 8 * KIB });
  const created = await createWebhookEndpoint(await getDb(), workspaceId, auditActorFromRequest(request, actor), value);
  return json(created, { status: 201, headers: noStore });
}, adminsOnly);

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
