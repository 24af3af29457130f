import { getDb } from "@/db";
import { withSession } from "@/lib/http/route";
import { campaignLogsCsvResponse } from "@/lib/logs/http";

/** The web app's "Export CSV": every message the current filters select, streamed. */
export const GET = withSession<{ id: string }>(async ({ request, params, workspaceId }) =>
  campaignLogsCsvResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
);
