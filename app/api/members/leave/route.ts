import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { sessionCookieForWorkspace } from "@/lib/auth/session";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { leaveWorkspace } from "@/lib/members/service";

/** Leaves the current workspace; the session moves to another workspace of the user. */
export const POST = withWorkspace(async ({ request, actor, workspaceId }) => {
  const next = await leaveWorkspace(await getDb(), workspaceId, { ...auditActorFromRequest(request, actor), userId: actor.id });
  const cookie = await sessionCookieForWorkspace(request, next);
  return json({ workspaceId: next }, { headers: cookie ? { "Set-Cookie": cookie } : {} });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
