import { getDb } from "@/db";
import { auditActorFromRequest, createApiKey, listApiKeys } from "@/lib/api-keys/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";

/** The workspace's keys as lists show them: never the key or its hash. */
export const GET = withWorkspace(async ({ workspaceId }) => {
  const data = await listApiKeys(await getDb(), workspaceId);
  return json({ data }, { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

/** Creates a key; the response is the only time the full key is ever returned. */
export const POST = withWorkspace(async ({ request, actor, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  const created = await createApiKey(await getDb(), workspaceId, auditActorFromRequest(request, actor), value);
  return json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
