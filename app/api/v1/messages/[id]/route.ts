import { getDb } from "@/db";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { getPublicMessage } from "@/lib/trigger/messages";

/** One message's status and timestamps (the `Location` of an accepted trigger request). */
export const GET = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  const message = await getPublicMessage(await getDb(), workspaceId, params.id);
  return json(message, { headers: { "Cache-Control": "no-store" } });
});

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
