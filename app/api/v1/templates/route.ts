import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery, readStrictBody } from "@/lib/http/request";
import { listTemplates } from "@/lib/templates/service";
import { submitTemplateSchema, templatesQuerySchema } from "@/lib/templates/schemas";
import { submitTemplate } from "@/lib/templates/submit";

/** Every template a sender can use: one page, so `nextCursor` is always null. */
export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const query = parseQuery(templatesQuerySchema, new URL(request.url));
  return json({ data: await listTemplates(await getDb(), workspaceId, query), nextCursor: null });
});

/** Submits a new template for WhatsApp's review; it is stored PENDING until the review decides. */
export const POST = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, submitTemplateSchema);
  const template = await submitTemplate(await getDb(), workspaceId, input, auditActorFromRequest(request, actor));
  return json(template, { status: 201 });
});

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
