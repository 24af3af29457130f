import { getDb } from "@/db";
import { countSegmentFilter, segmentFilter } from "@/lib/audiences/segments";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

export const GET = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  const db = await getDb();
  return json({ contactCount: await countSegmentFilter(db, workspaceId, await segmentFilter(db, workspaceId, params.id)) });
});

const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
