import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { autoReplyInputSchema, deleteAutoReply, updateAutoReply } from "@/lib/inbound/auto-replies";
import { readStrictBody } from "@/lib/http/request";
import { adminsOnly, json, onlyMethods, withWorkspace } from "@/lib/routing/route";

type Params = { id: string };

const routes = {
  ...onlyMethods(["PUT", "DELETE"]),
  PUT: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    const input = await readStrictBody(request, autoReplyInputSchema);
    return json(await updateAutoReply(await getDb(), workspaceId, params.id, input, auditActorFromRequest(request, actor)));
  }, adminsOnly),
  DELETE: withWorkspace<Params>(async ({ request, params, workspaceId, actor }) => {
    await deleteAutoReply(await getDb(), workspaceId, params.id, auditActorFromRequest(request, actor));
    return new Response(null, { status: 204 });
  }, adminsOnly),
};

export const { GET, POST, PUT, PATCH, DELETE } = routes;
