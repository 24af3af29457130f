import { getDb } from "@/db";
import { upsertContactSchema } from "@/lib/contacts/schemas";
import { getContactByPhone, parseContactPhone, upsertContact } from "@/lib/contacts/service";
import { methodNotAllowed, withApiKey } from "@/lib/http/route";
import { readStrictBody } from "@/lib/openapi/request";
import { apiJson } from "@/lib/openapi/resources";

type Params = { phone: string };

export const GET = withApiKey<Params>(async ({ params, workspaceId }) => {
  const phone = parseContactPhone(params.phone);
  return apiJson(await getContactByPhone(await getDb(), workspaceId, phone));
});

export const PUT = withApiKey<Params>(async ({ request, params, workspaceId }) => {
  const phone = parseContactPhone(params.phone);
  const input = await readStrictBody(request, upsertContactSchema);
  const { contact, created } = await upsertContact(await getDb(), workspaceId, phone, input);
  return apiJson(contact, created ? { status: 201, headers: { Location: `/api/v1/contacts/${encodeURIComponent(phone)}` } } : {});
});

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
