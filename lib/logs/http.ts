// Request → response for the logs routes under /api/v1 (the web app's logs pages and integrators
// call the same two).
import type { Executor } from "@/db";
import { json } from "@/lib/routing/route";
import { getCampaign } from "@/lib/campaigns/service";
import { logsCsvFileName, logsCsvStream, parseAttributesFlag, parseIncludeTestsFlag } from "./csv";
import { mappedExportAttributes } from "./export-query";
import { parseLogFilters, parseLogListParams } from "./filters";
import { countLogStatuses, listLogMessages, type LogPage } from "./query";
import type { StatusCounts } from "@/lib/statuses/messages";

interface CampaignRequest {
  workspaceId: string;
  campaignId: string;
  url: URL;
}

export type CampaignMessagesBody = LogPage & { counts?: StatusCounts };

/** `GET …/campaigns/{id}/messages`: one page of messages; `include=counts` adds the status counts. */
export async function campaignMessagesResponse(db: Executor, { workspaceId, campaignId, url }: CampaignRequest): Promise<Response> {
  const params = parseLogListParams(url.searchParams);
  await getCampaign(db, workspaceId, campaignId);
  const scope = { workspaceId, campaignId };
  const includeCounts = url.searchParams.getAll("include").some((value) => value.split(",").includes("counts"));
  const [page, counts] = await Promise.all([
    listLogMessages(db, scope, params),
    includeCounts ? countLogStatuses(db, scope, params) : undefined,
  ]);
  const body: CampaignMessagesBody = counts ? { ...page, counts } : page;
  return json(body, { headers: { "Cache-Control": "no-store" } });
}

/** `GET …/campaigns/{id}/logs.csv`: every message the filters select (test sends only on request), streamed as CSV. */
export async function campaignLogsCsvResponse(db: Executor, { workspaceId, campaignId, url }: CampaignRequest): Promise<Response> {
  const filters = { ...parseLogFilters(url.searchParams), excludeTests: !parseIncludeTestsFlag(url.searchParams) };
  const withAttributes = parseAttributesFlag(url.searchParams);
  const campaign = await getCampaign(db, workspaceId, campaignId);
  const attributeKeys = withAttributes ? mappedExportAttributes(campaign) : [];
  const body = await logsCsvStream(db, { workspaceId, campaignId }, filters, { attributeKeys });
  const fileName = logsCsvFileName(campaign.name);
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
