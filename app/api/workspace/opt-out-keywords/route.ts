import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { getOptOutKeywords, optOutKeywordsInputSchema, setOptOutKeywords } from "@/lib/contacts/opt-out-keywords";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

/** The workspace's own opt-out keywords (Contacts settings); the web app only. */
export const GET = withWorkspace(async ({ workspaceId }) => json(await getOptOutKeywords(await getDb(), workspaceId)), webAppOnly);

export const PUT = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, optOutKeywordsInputSchema);
  return json(await setOptOutKeywords(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)));
}, webAppOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
