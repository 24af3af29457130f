import { originOfRequest } from "@/lib/http/origin";
import { getDb } from "@/db";
import { campaignResource } from "@/lib/campaigns/http";
import { updateCampaignSchema } from "@/lib/campaigns/schemas";
import { getCampaign, updateCampaign } from "@/lib/campaigns/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

type Params = { id: string };

export const GET = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const db = await getDb();
  const campaign = await getCampaign(db, workspaceId, params.id);
  return json(await campaignResource(db, workspaceId, campaign, originOfRequest(request)));
});

export const PATCH = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const changes = await readStrictBody(request, updateCampaignSchema);
  const db = await getDb();
  const campaign = await updateCampaign(db, workspaceId, params.id, changes);
  return json(await campaignResource(db, workspaceId, campaign, originOfRequest(request)));
});

export const POST = methodNotAllowed(["GET", "PATCH"]);
export const PUT = methodNotAllowed(["GET", "PATCH"]);
export const DELETE = methodNotAllowed(["GET", "PATCH"]);
