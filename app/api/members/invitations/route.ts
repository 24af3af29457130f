import { originOfRequest } from "@/lib/http/origin";
import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { appUrl } from "@/lib/env";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { inviteMember } from "@/lib/members/service";

/** Invites an email address; the link goes out by mail (printed in the terminal in development). */
export const POST = withWorkspace(async ({ request, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 2 * KIB });
  const invitation = await inviteMember(await getDb(), workspaceId, { ...auditActorFromRequest(request, actor), userId: actor.id }, value, {
    baseUrl: appUrl(originOfRequest(request)),
  });
  return json(invitation, { status: 201 });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
