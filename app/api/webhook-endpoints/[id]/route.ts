import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/event-webhooks/endpoints";

const noStore = { "Cache-Control": "no-store" };

export const GET = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  return json(await getWebhookEndpoint(await getDb(), workspaceId, params.id), { headers: noStore });
}, adminsOnly);

/** Changes the URL, description or events, or switches the endpoint off (`enabled: false`) and on. */
export const PATCH = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 8 * KIB });
  return json(await updateWebhookEndpoint(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id, value), { headers: noStore });
}, adminsOnly);

export const DELETE = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  await deleteWebhookEndpoint(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id);
  return new Response(null, { status: 204, headers: noStore });
}, adminsOnly);

export const POST = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const PUT = methodNotAllowed(["GET", "PATCH", "DELETE"]);
