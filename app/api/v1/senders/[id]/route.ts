import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { adminWrites, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { deleteSender, getSenderResource, updateSender } from "@/lib/senders/collection";
import { deleteSenderQuerySchema, updateSenderSchema } from "@/lib/senders/schemas";

type Params = { id: string };

export const GET = withWorkspace<Params>(async ({ params, workspaceId }) => json(await getSenderResource(await getDb(), workspaceId, params.id)));

export const PATCH = withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
  const input = await readStrictBody(request, updateSenderSchema);
  return json(await updateSender(await getDb(), workspaceId, params.id, input, auditActorFromRequest(request, actor)));
}, adminWrites);

export const DELETE = withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
  const query = parseQuery(deleteSenderQuerySchema, new URL(request.url));
  await deleteSender(await getDb(), workspaceId, params.id, query, auditActorFromRequest(request, actor));
  return new Response(null, { status: 204 });
}, adminWrites);

const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const POST = notAllowed;
export const PUT = notAllowed;
