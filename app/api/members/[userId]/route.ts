import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { changeMemberRole, removeMember } from "@/lib/members/service";

/** `{ "role": "admin" | "member" }`; the owner keeps the owner role. */
export const PATCH = withWorkspace<{ userId: string }>(async ({ request, params, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 1 * KIB });
  return json(await changeMemberRole(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.userId, value));
}, adminsOnly);

/** Removes a member; their sessions in this workspace end with their next request. */
export const DELETE = withWorkspace<{ userId: string }>(async ({ request, params, actor, workspaceId }) => {
  await removeMember(await getDb(), workspaceId, { ...auditActorFromRequest(request, actor), userId: actor.id }, params.userId);
  return new Response(null, { status: 204 });
}, adminsOnly);

export const GET = methodNotAllowed(["PATCH", "DELETE"]);
export const POST = methodNotAllowed(["PATCH", "DELETE"]);
export const PUT = methodNotAllowed(["PATCH", "DELETE"]);
