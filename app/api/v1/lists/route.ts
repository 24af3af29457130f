import { getDb } from "@/db";
import { createList, createListSchema, listLists } from "@/lib/audiences/lists";
import { pageQuerySchema } from "@/lib/contacts/schemas";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(pageQuerySchema, new URL(request.url));
  return json(await listLists(await getDb(), workspaceId, query));
});

export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const input = await readStrictBody(request, createListSchema);
  const list = await createList(await getDb(), workspaceId, input);
  return json(list, { status: 201, headers: { Location: `/api/v1/lists/${list.id}` } });
});

const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
