import { getDb } from "@/db";
import { deleteSegment, getSegment, updateSegment, updateSegmentSchema } from "@/lib/audiences/segments";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

type Params = { id: string };

export const GET = withWorkspace<Params>(async ({ params, workspaceId }) => json(await getSegment(await getDb(), workspaceId, params.id)));

export const PATCH = withWorkspace<Params>(async ({ request, params, workspaceId }) => {
  const input = await readStrictBody(request, updateSegmentSchema);
  return json(await updateSegment(await getDb(), workspaceId, params.id, input));
});

export const DELETE = withWorkspace<Params>(async ({ params, workspaceId }) => {
  await deleteSegment(await getDb(), workspaceId, params.id);
  return new Response(null, { status: 204 });
});

const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const POST = notAllowed;
export const PUT = notAllowed;
