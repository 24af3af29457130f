import { getDb } from "@/db";
import { assertFilterReferences, countSegmentFilter, countSegmentSchema } from "@/lib/audiences/segments";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

/** The live count of a filter that is not saved yet (the segment builder calls it as you type). */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const { filter } = await readStrictBody(request, countSegmentSchema);
  const db = await getDb();
  await assertFilterReferences(db, workspaceId, filter);
  return json({ contactCount: await countSegmentFilter(db, workspaceId, filter) });
});

const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
