import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { pageQuerySchema } from "@/lib/contacts/schemas";
import { adminWrites, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { createSender, listSenders } from "@/lib/senders/collection";
import { createSenderSchema } from "@/lib/senders/schemas";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(pageQuerySchema, new URL(request.url));
  return json(await listSenders(await getDb(), workspaceId, query));
});

/** Secrets are accepted here and never returned. */
export const POST = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, createSenderSchema);
  const sender = await createSender(await getDb(), workspaceId, input, auditActorFromRequest(request, actor));
  return json(sender, { status: 201, headers: { Location: `/api/v1/senders/${sender.id}` } });
}, adminWrites);

const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
