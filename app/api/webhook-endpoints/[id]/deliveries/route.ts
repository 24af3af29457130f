import { getDb } from "@/db";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/http/route";
import { listWebhookDeliveries } from "@/lib/event-webhooks/deliveries";

/** The endpoint's delivery log, newest first; `?cursor=` continues from `nextCursor`. */
export const GET = withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) => {
  const cursor = new URL(request.url).searchParams.get("cursor");
  return json(await listWebhookDeliveries(await getDb(), workspaceId, params.id, { cursor }), { headers: { "Cache-Control": "no-store" } });
}, webAppOnly);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
