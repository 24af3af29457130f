import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { rollWebhookSecret } from "@/lib/event-webhooks/endpoints";

/** A new signing secret, returned this once; the old one stops signing at once. */
export const POST = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  const rolled = await rollWebhookSecret(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id);
  return json(rolled, { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
