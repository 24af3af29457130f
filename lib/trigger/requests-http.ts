// `GET /api/v1/campaigns/{id}/requests`: the campaign's request log, for the Requests tab and integrators.
import type { Executor } from "@/db";
import { getCampaign } from "@/lib/campaigns/service";
import { json } from "@/lib/routing/route";
import { listTriggerRequests, parseRequestListParams } from "./requests-query";

export async function campaignRequestsResponse(
  db: Executor,
  { workspaceId, campaignId, url }: { workspaceId: string; campaignId: string; url: URL },
): Promise<Response> {
  const params = parseRequestListParams(url.searchParams);
  await getCampaign(db, workspaceId, campaignId);
  const page = await listTriggerRequests(db, { workspaceId, campaignId }, params);
  return json(page, { headers: { "Cache-Control": "no-store" } });
}
