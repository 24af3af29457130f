import { getDb } from "@/db";
import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { campaignLogsCsvResponse } from "@/lib/logs/http";

/** The campaign's logs as CSV (same filters as the web app's Export CSV), streamed. */
export const GET = withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) =>
  campaignLogsCsvResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
