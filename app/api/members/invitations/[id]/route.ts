import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { adminsOnly, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { revokeInvitation } from "@/lib/members/service";

/** Withdraws an open invitation: its link stops working at once. */
export const DELETE = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  await revokeInvitation(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id);
  return new Response(null, { status: 204 });
}, adminsOnly);

export const GET = methodNotAllowed(["DELETE"]);
export const POST = methodNotAllowed(["DELETE"]);
export const PUT = methodNotAllowed(["DELETE"]);
export const PATCH = methodNotAllowed(["DELETE"]);
