import { getDb } from "@/db";
import { createCampaign, listCampaigns } from "@/lib/campaigns/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { json, methodNotAllowed, withSession } from "@/lib/http/route";

export const GET = withSession(async ({ request, workspaceId }) => {
  const url = new URL(request.url);
  const page = await listCampaigns(await getDb(), workspaceId, {
    cursor: url.searchParams.get("cursor"),
    limit: Number(url.searchParams.get("limit")) || undefined,
    includeArchived: url.searchParams.get("archived") === "true",
  });
  return json(page);
});

export const POST = withSession(async ({ request, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  const campaign = await createCampaign(await getDb(), workspaceId, (value ?? {}) as Parameters<typeof createCampaign>[2]);
  return json(campaign, { status: 201, headers: { Location: `/api/campaigns/${campaign.id}` } });
});

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
