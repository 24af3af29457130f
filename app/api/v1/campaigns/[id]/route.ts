import { getDb } from "@/db";
import { updateCampaignSchema } from "@/lib/campaigns/schemas";
import { getCampaign, updateCampaign } from "@/lib/campaigns/service";
import { methodNotAllowed, withApiKey } from "@/lib/http/route";
import { readStrictBody } from "@/lib/openapi/request";
import { apiJson, campaignResource } from "@/lib/openapi/resources";

type Params = { id: string };

export const GET = withApiKey<Params>(async ({ request, params, workspaceId }) => {
  const db = await getDb();
  const campaign = await getCampaign(db, workspaceId, params.id);
  return apiJson(await campaignResource(db, workspaceId, campaign, new URL(request.url).origin));
});

export const PATCH = withApiKey<Params>(async ({ request, params, workspaceId }) => {
  const changes = await readStrictBody(request, updateCampaignSchema);
  const db = await getDb();
  const campaign = await updateCampaign(db, workspaceId, params.id, changes);
  return apiJson(await campaignResource(db, workspaceId, campaign, new URL(request.url).origin));
});

export const POST = methodNotAllowed(["GET", "PATCH"]);
export const PUT = methodNotAllowed(["GET", "PATCH"]);
export const DELETE = methodNotAllowed(["GET", "PATCH"]);
