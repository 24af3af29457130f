import { getDb } from "@/db";
import { notFound } from "@/lib/http/errors";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { getWorkspace } from "@/lib/workspaces";

/** Who the request authenticates as: the smallest useful check that a key works. */
export const GET = withWorkspace(async ({ actor, workspaceId }) => {
  const workspace = await getWorkspace(await getDb(), workspaceId);
  if (!workspace) throw notFound("The workspace of this API key no longer exists.");
  return json({
    workspace: { id: workspace.id, name: workspace.name },
    key: actor.type === "api_key" ? { id: actor.id, name: actor.name } : null,
    user: actor.type === "user" ? { id: actor.id, email: actor.email, name: actor.name } : null,
  });
}, { triggerKeys: true });

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
