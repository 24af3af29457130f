import { getDb } from "@/db";
import { methodNotAllowed, withWorkspace } from "@/lib/http/route";
import { campaignRequestsResponse } from "@/lib/trigger/requests-http";

/** Every call to the campaign's trigger endpoint in the last 7 days, newest first. */
export const GET = withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) =>
  campaignRequestsResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
