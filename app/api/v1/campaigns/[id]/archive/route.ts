import { getDb } from "@/db";
import { readOptionalJson } from "@/lib/campaigns/actions";
import { methodNotAllowed, withApiKey } from "@/lib/http/route";
import { apiJson, campaignActionResource } from "@/lib/openapi/resources";

export const POST = withApiKey<{ id: string }>(async ({ request, params, workspaceId }) => {
  const body = await readOptionalJson(request);
  return apiJson(await campaignActionResource(await getDb(), workspaceId, params.id, "archive", body, new URL(request.url).origin));
});

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
