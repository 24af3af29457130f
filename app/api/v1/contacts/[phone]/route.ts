import { getDb } from "@/db";
import { upsertContactSchema } from "@/lib/contacts/schemas";
import { getContactByPhone, parseContactPhone, upsertContact } from "@/lib/contacts/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/http/route";
import { readStrictBody } from "@/lib/openapi/request";

type Params = { phone: string };

export const GET = withWorkspace<Params>(async ({ params, workspaceId }) => {
  const phone = parseContactPhone(params.phone);
  return json(await getContactByPhone(await getDb(), workspaceId, phone));
});

export const PUT = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const phone = parseContactPhone(params.phone);
  const input = await readStrictBody(request, upsertContactSchema);
  const { contact, created } = await upsertContact(await getDb(), workspaceId, phone, input);
  return json(contact, created ? { status: 201, headers: { Location: `/api/v1/contacts/${encodeURIComponent(phone)}` } } : {});
});

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
