import { getDb } from "@/db";
import { campaignResource } from "@/lib/campaigns/http";
import { createCampaignSchema } from "@/lib/campaigns/schemas";
import { createCampaign, listCampaigns } from "@/lib/campaigns/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { listCampaignsQuerySchema } from "@/lib/openapi/schemas";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(listCampaignsQuerySchema, new URL(request.url));
  return json(await listCampaigns(await getDb(), workspaceId, query));
});

export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const input = await readStrictBody(request, createCampaignSchema);
  const db = await getDb();
  const campaign = await createCampaign(db, workspaceId, input);
  return json(await campaignResource(db, workspaceId, campaign), {
    status: 201,
    headers: { Location: `/api/v1/campaigns/${campaign.id}` },
  });
});

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
