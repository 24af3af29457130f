import { getDb } from "@/db";
import { readOptionalJson, runCampaignAction } from "@/lib/campaigns/actions";
import { json, methodNotAllowed, withSession } from "@/lib/http/route";

export const POST = withSession<{ id: string }>(async ({ request, params, workspaceId }) => {
  const body = await readOptionalJson(request);
  return json(await runCampaignAction(await getDb(), workspaceId, params.id, "pause", body, new URL(request.url).origin));
});

export const GET = methodNotAllowed(["POST"]);
