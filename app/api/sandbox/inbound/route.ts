import { getDb } from "@/db";
import { simulateInboundReply, simulateReplySchema } from "@/lib/inbound/sandbox";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

/** Sandbox only: a reply from one of the workspace's contacts, handled like a real inbound webhook. */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const input = await readStrictBody(request, simulateReplySchema);
  return json(await simulateInboundReply(await getDb(), workspaceId, input));
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
