import { getDb } from "@/db";
import { dismissNotice } from "@/lib/alerts/notices";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/http/route";

/** Hides the notice from the banner; it stays open until its condition clears. */
export const POST = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  return json(await dismissNotice(await getDb(), workspaceId, params.id), { headers: { "Cache-Control": "no-store" } });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
