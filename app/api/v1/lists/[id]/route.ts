import { getDb } from "@/db";
import { deleteList, getList, updateList, updateListSchema } from "@/lib/audiences/lists";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

type Params = { id: string };

export const GET = withWorkspace<Params>(async ({ params, workspaceId }) => json(await getList(await getDb(), workspaceId, params.id)));

export const PATCH = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const input = await readStrictBody(request, updateListSchema);
  return json(await updateList(await getDb(), workspaceId, params.id, input));
});

export const DELETE = withWorkspace<Params>(async ({ params, workspaceId }) => {
  await deleteList(await getDb(), workspaceId, params.id);
  return new Response(null, { status: 204 });
});

const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const POST = notAllowed;
export const PUT = notAllowed;
