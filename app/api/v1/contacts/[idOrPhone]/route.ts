import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { patchContactSchema, upsertContactSchema } from "@/lib/contacts/schemas";
import { deleteContact, getContact, parseContactPhone, updateContact, upsertContact } from "@/lib/contacts/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

type Params = { idOrPhone: string };

export const GET = withWorkspace<Params>(async ({ params, workspaceId }) => {
  return json(await getContact(await getDb(), workspaceId, params.idOrPhone));
});

/** Kept for existing integrations: an upsert addressed by phone only. */
export const PUT = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const phone = parseContactPhone(params.idOrPhone);
  const input = await readStrictBody(request, upsertContactSchema);
  const { contact, created } = await upsertContact(await getDb(), workspaceId, phone, input);
  return json(contact, created ? { status: 201, headers: { Location: `/api/v1/contacts/${encodeURIComponent(phone)}` } } : {});
});

export const PATCH = withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
  const input = await readStrictBody(request, patchContactSchema);
  return json(await updateContact(await getDb(), workspaceId, params.idOrPhone, input, actor, auditActorFromRequest(request, actor)));
});

export const DELETE = withWorkspace<Params>(async ({ params, workspaceId }) => {
  await deleteContact(await getDb(), workspaceId, params.idOrPhone);
  return new Response(null, { status: 204 });
});

export const POST = methodNotAllowed(["GET", "PUT", "PATCH", "DELETE"]);
