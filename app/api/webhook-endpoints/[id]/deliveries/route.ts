import { getDb } from "@/db";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { listWebhookDeliveries } from "@/lib/event-webhooks/deliveries";

/** The endpoint's delivery log, newest first; `?cursor=` continues from `nextCursor`. */
export const GET = withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) => {
  const cursor = new URL(request.url).searchParams.get("cursor");
  return json(await listWebhookDeliveries(await getDb(), workspaceId, params.id, { cursor }), { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
