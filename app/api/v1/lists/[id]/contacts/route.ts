import { getDb } from "@/db";
import { addMembershipSchema, addToList } from "@/lib/audiences/list-members";
import { membershipSchema, removeListMembers } from "@/lib/audiences/lists";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

type Params = { id: string };

export const POST = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const input = await readStrictBody(request, addMembershipSchema);
  return json(await addToList(await getDb(), workspaceId, params.id, input));
});

export const DELETE = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const input = await readStrictBody(request, membershipSchema);
  return json(await removeListMembers(await getDb(), workspaceId, params.id, input));
});

const notAllowed = methodNotAllowed(["POST", "DELETE"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
