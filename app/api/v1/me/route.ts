import { getDb } from "@/db";
import { notFound } from "@/lib/http/errors";
import { json, methodNotAllowed, withApiKey } from "@/lib/http/route";
import { getWorkspace } from "@/lib/workspaces";

/** Who the presented API key belongs to: the smallest useful check that a key works. */
export const GET = withApiKey(async ({ apiKey, workspaceId }) => {
  const workspace = await getWorkspace(await getDb(), workspaceId);
  if (!workspace) throw notFound("The workspace of this API key no longer exists.");
  return json(
    { workspace: { id: workspace.id, name: workspace.name }, key: { id: apiKey.id, name: apiKey.name } },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
