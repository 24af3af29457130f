import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { optContact } from "@/lib/contacts/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

export const POST = withWorkspace<{ idOrPhone: string }>(async ({ request, params, workspaceId, actor }) => {
  return json(await optContact(await getDb(), workspaceId, params.idOrPhone, true, actor, auditActorFromRequest(request, actor)));
});

const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
