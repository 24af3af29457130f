import { getDb } from "@/db";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { listTeam } from "@/lib/members/service";

/** The workspace's members and open invitations (every member may see who is on the team). */
export const GET = withWorkspace(async ({ workspaceId }) => json(await listTeam(await getDb(), workspaceId)), webAppOnly);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
