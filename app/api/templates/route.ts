import { getDb } from "@/db";
import { json, methodNotAllowed, withSession } from "@/lib/http/route";
import { listTemplates } from "@/lib/templates/service";

export const GET = withSession(async ({ workspaceId }) => json({ data: await listTemplates(await getDb(), workspaceId) }));

export const POST = methodNotAllowed(["GET"]);
