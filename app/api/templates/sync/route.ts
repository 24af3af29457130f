import { getDb } from "@/db";
import { json, methodNotAllowed, withSession } from "@/lib/http/route";
import { listTemplates, syncTemplates } from "@/lib/templates/service";

/** Pulls the templates of the connected WhatsApp Business Account (or restores the sandbox demos). */
export const POST = withSession(async ({ workspaceId }) => {
  const db = await getDb();
  const result = await syncTemplates(db, workspaceId);
  return json({ ...result, data: await listTemplates(db, workspaceId) });
});

export const GET = methodNotAllowed(["POST"]);
