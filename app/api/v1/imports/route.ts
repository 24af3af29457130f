import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { importOptionsSchema, listImportsQuerySchema } from "@/lib/imports/schemas";
import { createImport, listImports } from "@/lib/imports/service";
import { parseQuery, readStrictBody } from "@/lib/http/request";

export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(listImportsQuerySchema, new URL(request.url));
  return json(await listImports(await getDb(), workspaceId, query));
});

export const POST = withWorkspace(async ({ request, workspaceId, actor }) => {
  const options = await readStrictBody(request, importOptionsSchema);
  const job = await createImport(await getDb(), workspaceId, options, actor, auditActorFromRequest(request, actor));
  return json(job, { status: 201, headers: { Location: `/api/v1/imports/${job.id}` } });
});

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
