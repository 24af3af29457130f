import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { importResponse } from "@/lib/imports/http";

export const GET = withWorkspace<{ id: string }>(async ({ params, requestId, workspaceId }) => importResponse(requestId, workspaceId, params.id));

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
