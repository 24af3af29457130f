import { getDb } from "@/db";
import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { ADMIN_ROLES } from "@/lib/members/roles";
import { campaignRequestsResponse } from "@/lib/trigger/requests-http";

/**
 * Every call to the campaign's trigger endpoint in the last 7 days, newest first. The bodies hold
 * customers' phone numbers and addresses: in the web app, owners and admins only (a full-scope key
 * acts for the whole workspace).
 */
export const GET = withWorkspace<{ id: string }>(
  async ({ request, params, workspaceId }) => campaignRequestsResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
  { roles: ADMIN_ROLES },
);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
