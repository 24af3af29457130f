import { originOfRequest } from "@/lib/http/origin";
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { appUrl } from "@/lib/env";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { renewInvitationLink } from "@/lib/members/service";

/** A fresh link for an open invitation, for an owner or admin to copy; the previous link stops working. */
export const POST = withWorkspace<{ id: string }>(async ({ request, params, actor, workspaceId }) => {
  const renewed = await renewInvitationLink(await getDb(), workspaceId, auditActorFromRequest(request, actor), params.id, {
    baseUrl: appUrl(originOfRequest(request)),
  });
  return json(renewed, { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
