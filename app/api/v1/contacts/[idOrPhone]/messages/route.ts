import { getDb } from "@/db";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { contactTimelineQuerySchema, listContactMessages } from "@/lib/inbound/timeline";
import { parseQuery } from "@/lib/http/request";

export const GET = withWorkspace<{ idOrPhone: string }>(async ({ request, params, workspaceId }) => {
  const query = parseQuery(contactTimelineQuerySchema, new URL(request.url));
  return json(await listContactMessages(await getDb(), workspaceId, params.idOrPhone, query));
});

const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
