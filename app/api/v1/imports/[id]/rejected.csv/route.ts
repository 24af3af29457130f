import { getDb } from "@/db";
import { methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { rejectedRowsCsv } from "@/lib/imports/service";

export const GET = withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
  const { fileName, stream } = await rejectedRowsCsv(await getDb(), workspaceId, params.id);
  return new Response(stream, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"` },
  });
});

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
