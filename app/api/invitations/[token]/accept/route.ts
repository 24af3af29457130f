import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { sessionCookieForWorkspace } from "@/lib/auth/session";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { acceptInvitation } from "@/lib/members/service";

/** Accepts an invitation for the signed-in user's email; the session moves to the workspace joined. */
export const POST = withWorkspace<{ token: string }>(async ({ request, params, actor }) => {
  if (actor.type !== "user") throw new Error("unreachable: session-only route");
  const joined = await acceptInvitation(await getDb(), params.token, { id: actor.id, email: actor.email }, auditActorFromRequest(request, actor));
  const cookie = await sessionCookieForWorkspace(request, joined);
  return json({ workspaceId: joined }, { headers: cookie ? { "Set-Cookie": cookie } : {} });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
