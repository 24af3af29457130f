import { getDb } from "@/db";
import { dismissNotice } from "@/lib/alerts/notices";
import { json, methodNotAllowed, ownersOnly, withWorkspace } from "@/lib/routing/route";

/** Hides the notice from the owners' banner (only they see it); it stays open until its condition clears. */
export const POST = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  return json(await dismissNotice(await getDb(), workspaceId, params.id), { headers: { "Cache-Control": "no-store" } });
}, ownersOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
