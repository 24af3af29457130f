import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { createContactSchema, listContactsQuerySchema } from "@/lib/contacts/schemas";
import { listContacts } from "@/lib/audiences/contact-list";
import { createOrUpdateContact } from "@/lib/contacts/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(listContactsQuerySchema, new URL(request.url));
  return json(await listContacts(await getDb(), workspaceId, query));
});

export const POST = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, createContactSchema);
  const { contact, created } = await createOrUpdateContact(await getDb(), workspaceId, input, actor, auditActorFromRequest(request, actor));
  return json(contact, created ? { status: 201, headers: { Location: `/api/v1/contacts/${contact.id}` } } : {});
});

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
