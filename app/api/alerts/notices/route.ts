import { getDb } from "@/db";
import { listActiveNotices } from "@/lib/alerts/notices";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";

/** The open, not dismissed alerts the banner shows; they are for the workspace's owners (empty for anyone else). */
export const GET = withWorkspace(async ({ workspaceId, role }) => {
  return json({ data: role === "owner" ? await listActiveNotices(await getDb(), workspaceId) : [] });
}, webAppOnly);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
