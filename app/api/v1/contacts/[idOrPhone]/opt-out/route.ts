import { getDb } from "@/db";
import { setContactConsent } from "@/lib/contacts/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

export const POST = withWorkspace<{ idOrPhone: string }>(async ({ params, workspaceId, actor }) => {
  return json(await setContactConsent(await getDb(), workspaceId, params.idOrPhone, true, actor));
});

const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
