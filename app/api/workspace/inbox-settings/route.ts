import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { readStrictBody } from "@/lib/http/request";
import { adminsOnly, json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { getInboxSettings, inboxSettingsSchema, setInboxSettings } from "@/lib/workspaces";

/** The replied step's window and who sees which conversations (Settings → Workspace); the web app only. */
export const GET = withWorkspace(async ({ workspaceId }) => json(await getInboxSettings(await getDb(), workspaceId)), webAppOnly);

export const PUT = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, inboxSettingsSchema);
  return json(await setInboxSettings(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)));
}, adminsOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
