import { getDb } from "@/db";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { runJobsSoon } from "@/lib/jobs/soon";
import { sendTestWebhookEvent } from "@/lib/event-webhooks/deliveries";

/** Queues a `webhook.test` event for this endpoint; it goes out right after the response. */
export const POST = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  const delivery = await sendTestWebhookEvent(await getDb(), workspaceId, params.id);
  runJobsSoon();
  return json(delivery, { status: 202, headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
