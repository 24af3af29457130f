import { getDb } from "@/db";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { parseQuery } from "@/lib/http/request";
import { listTemplates, syncTemplates } from "@/lib/templates/service";
import { templatesQuerySchema } from "@/lib/templates/schemas";

/** Pulls the templates of a sender's WhatsApp Business Account (`?senderId=`, else the default sender's), or restores the sandbox demos. */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const db = await getDb();
  const query = parseQuery(templatesQuerySchema, new URL(request.url));
  const result = await syncTemplates(db, workspaceId, query);
  return json({ ...result, data: await listTemplates(db, workspaceId, query) });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
