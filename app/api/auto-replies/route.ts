import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { autoReplyInputSchema, createAutoReply, listAutoReplies } from "@/lib/inbound/auto-replies";
import { readStrictBody } from "@/lib/http/request";
import { adminsOnly, json, onlyMethods, webAppOnly, withWorkspace } from "@/lib/routing/route";

const routes = {
  ...onlyMethods(["GET", "POST"]),
  GET: withWorkspace(async ({ workspaceId }) => json({ data: await listAutoReplies(await getDb(), workspaceId) }), webAppOnly),
  POST: withWorkspace(async ({ request, workspaceId, actor }) => {
    const input = await readStrictBody(request, autoReplyInputSchema);
    return json(await createAutoReply(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)), { status: 201 });
  }, adminsOnly),
};

export const { GET, POST, PUT, PATCH, DELETE } = routes;
