import { getDb } from "@/db";
import { createSavedReply, listSavedReplies, savedReplyInputSchema } from "@/lib/conversations/saved-replies";
import { readStrictBody } from "@/lib/http/request";
import { json, onlyMethods, webAppOnly, withWorkspace } from "@/lib/routing/route";

const routes = {
  ...onlyMethods(["GET", "POST"]),
  GET: withWorkspace(async ({ workspaceId }) => json({ data: await listSavedReplies(await getDb(), workspaceId) }), webAppOnly),
  POST: withWorkspace(async ({ request, workspaceId, actor }) => {
    const input = await readStrictBody(request, savedReplyInputSchema);
    return json(await createSavedReply(await getDb(), workspaceId, actor.type === "user" ? actor.id : null, input), { status: 201 });
  }, webAppOnly),
};

export const { GET, POST, PUT, PATCH, DELETE } = routes;
