import { getDb } from "@/db";
import { createSegment, createSegmentSchema, listSegments } from "@/lib/audiences/segments";
import { pageQuerySchema } from "@/lib/contacts/schemas";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(pageQuerySchema, new URL(request.url));
  return json(await listSegments(await getDb(), workspaceId, query));
});

export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const input = await readStrictBody(request, createSegmentSchema);
  const segment = await createSegment(await getDb(), workspaceId, input);
  return json(segment, { status: 201, headers: { Location: `/api/v1/segments/${segment.id}` } });
});

const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
