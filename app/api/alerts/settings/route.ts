import { getDb } from "@/db";
import { getAlertSettings, updateAlertSettings } from "@/lib/alerts/settings";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";

const noStore = { "Cache-Control": "no-store" };

export const GET = withWorkspace(async ({ workspaceId }) => json(await getAlertSettings(await getDb(), workspaceId), { headers: noStore }), webAppOnly);

/** Replaces the thresholds and the email switch; `slackWebhookUrl` absent keeps the stored URL, null removes it. */
export const PUT = withWorkspace(async ({ request, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  return json(await updateAlertSettings(await getDb(), workspaceId, auditActorFromRequest(request, actor), value), { headers: noStore });
}, adminsOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
