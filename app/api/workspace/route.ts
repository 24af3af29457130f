import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";
import { getWorkspace, renameWorkspace, renameWorkspaceSchema } from "@/lib/workspaces";
import { notFound } from "@/lib/http/errors";

/** The signed-in user's workspace (Settings → Workspace); the web app only. */
export const GET = withWorkspace(async ({ workspaceId }) => {
  const workspace = await getWorkspace(await getDb(), workspaceId);
  if (!workspace) throw notFound("Workspace not found.");
  return json({ id: workspace.id, name: workspace.name });
}, webAppOnly);

/** Renames the workspace; only its owner may. */
export const PATCH = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, renameWorkspaceSchema);
  return json(await renameWorkspace(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)));
}, webAppOnly);

export const PUT = methodNotAllowed(["GET", "PATCH"]);
export const POST = methodNotAllowed(["GET", "PATCH"]);
export const DELETE = methodNotAllowed(["GET", "PATCH"]);
