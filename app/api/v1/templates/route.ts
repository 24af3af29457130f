import { getDb } from "@/db";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { listTemplates } from "@/lib/templates/service";

/** Every template the workspace's sender can use: one page, so `nextCursor` is always null. */
export const GET = withWorkspace(async ({ workspaceId }) => json({ data: await listTemplates(await getDb(), workspaceId), nextCursor: null }));

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
