import { getDb } from "@/db";
import { methodNotAllowed, withApiKey } from "@/lib/http/route";
import { apiJson } from "@/lib/openapi/resources";
import { listTemplates } from "@/lib/templates/service";

/** Every template the workspace's sender can use: one page, so `nextCursor` is always null. */
export const GET = withApiKey(async ({ workspaceId }) => apiJson({ data: await listTemplates(await getDb(), workspaceId), nextCursor: null }));

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
