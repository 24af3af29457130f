import { getDb } from "@/db";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { listTestReceipts } from "@/lib/event-webhooks/test-endpoint";

/** What the built-in test endpoint received, newest first (at most 50), each with its signature checked. */
export const GET = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  return json({ data: await listTestReceipts(await getDb(), workspaceId, params.id) }, { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
