import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { readStrictBody } from "@/lib/http/request";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { defaultCountrySchema, getDefaultCountry, setDefaultCountry } from "@/lib/workspaces";

/** The country numbers without a country code are read in (Settings → Workspace); the web app only. */
export const GET = withWorkspace(async ({ workspaceId }) => json({ defaultCountry: await getDefaultCountry(await getDb(), workspaceId) }), webAppOnly);

export const PUT = withWorkspace(async ({ request, workspaceId, actor }) => {
  const input = await readStrictBody(request, defaultCountrySchema);
  return json(await setDefaultCountry(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)));
}, webAppOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
export const DELETE = methodNotAllowed(["GET", "PUT"]);
