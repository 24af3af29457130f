import { getDb } from "@/db";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { listTemplates, syncTemplates } from "@/lib/templates/service";

/** Pulls the templates of the connected WhatsApp Business Account (or restores the sandbox demos). */
export const POST = withWorkspace(async ({ workspaceId }) => {
  const db = await getDb();
  const result = await syncTemplates(db, workspaceId);
  return json({ ...result, data: await listTemplates(db, workspaceId) });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
