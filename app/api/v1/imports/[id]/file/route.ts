import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { acceptImportFile, csvBody } from "@/lib/imports/http";

export const PUT = withWorkspace<{ id: string }>(
  async ({ request, params, requestId, workspaceId }) => acceptImportFile(request, requestId, workspaceId, params.id, csvBody(request)),
  { csvBody: true },
);

export const GET = methodNotAllowed(["PUT"]);
export const POST = methodNotAllowed(["PUT"]);
export const PATCH = methodNotAllowed(["PUT"]);
export const DELETE = methodNotAllowed(["PUT"]);
