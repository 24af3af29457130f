import { getDb } from "@/db";
import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { campaignMessagesResponse } from "@/lib/logs/http";

/** The campaign's messages, newest first, with keyset cursors (`nextCursor` / `prevCursor`). */
export const GET = withWorkspace<{ id: string }>(async ({ request, params, workspaceId }) =>
  campaignMessagesResponse(await getDb(), { workspaceId, campaignId: params.id, url: new URL(request.url) }),
);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
