import { getDb } from "@/db";
import { countContacts } from "@/lib/audiences/contact-list";
import { countContactsQuerySchema } from "@/lib/contacts/schemas";
import { parseQuery } from "@/lib/http/request";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(countContactsQuerySchema, new URL(request.url));
  return json(await countContacts(await getDb(), workspaceId, query));
});

const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
