import { getDb } from "@/db";
import { auditActorFromRequest, deleteApiKey } from "@/lib/api-keys/service";
import { adminsOnly, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

/** Deletes (revokes) a key: once this responds, requests with the key get 401. */
export const DELETE = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  await deleteApiKey(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["DELETE"]);
export const POST = methodNotAllowed(["DELETE"]);
export const PUT = methodNotAllowed(["DELETE"]);
export const PATCH = methodNotAllowed(["DELETE"]);
