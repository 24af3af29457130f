import { getDb } from "@/db";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery } from "@/lib/http/request";
import { listTemplates } from "@/lib/templates/service";
import { templatesQuerySchema } from "@/lib/templates/schemas";

/** Every template a sender can use: one page, so `nextCursor` is always null. */
export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(templatesQuerySchema, new URL(request.url));
  return json({ data: await listTemplates(await getDb(), workspaceId, query), nextCursor: null });
});

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
