import { getDb } from "@/db";
import { deleteSavedReply, savedReplyInputSchema, updateSavedReply } from "@/lib/conversations/saved-replies";
import { readStrictBody } from "@/lib/http/request";
import { json, onlyMethods, webAppOnly, withWorkspace } from "@/lib/routing/route";

type Params = { id: string };

const routes = {
  ...onlyMethods(["PUT", "DELETE"]),
  PUT: withWorkspace<Params>(async ({ request, params, workspaceId }) => {
    const input = await readStrictBody(request, savedReplyInputSchema);
    return json(await updateSavedReply(await getDb(), workspaceId, params.id, input));
  }, webAppOnly),
  DELETE: withWorkspace<Params>(async ({ params, workspaceId }) => {
    await deleteSavedReply(await getDb(), workspaceId, params.id);
    return new Response(null, { status: 204 });
  }, webAppOnly),
};

export const { GET, POST, PUT, PATCH, DELETE } = routes;
