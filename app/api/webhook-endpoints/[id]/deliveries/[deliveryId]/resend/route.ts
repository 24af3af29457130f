import { getDb } from "@/db";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { runJobsSoon } from "@/lib/jobs/soon";
import { resendWebhookDelivery } from "@/lib/event-webhooks/deliveries";

/** The same event (same id and body) once more to this endpoint, as a new delivery. */
export const POST = withWorkspace<{ id: string; deliveryId: string }>(async ({ params, workspaceId }) => {
  const delivery = await resendWebhookDelivery(await getDb(), workspaceId, params.id, params.deliveryId);
  runJobsSoon();
  return json(delivery, { status: 202, headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
