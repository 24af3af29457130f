import { getDb } from "@/db";
import { withSession } from "@/lib/http/route";
import { campaignMessagesResponse } from "@/lib/logs/http";

/** A page of a campaign's messages for the logs page (polling for new ones uses `prevCursor`). */
export const GET = withSession<{ id: string }>(async ({ request, params, workspaceId }) =>
  campaignMessagesResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
);
