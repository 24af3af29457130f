import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { getSender } from "@/lib/senders/service";
import { saveSenderSettings } from "@/lib/senders/tier-setting";

const noStore = { "Cache-Control": "no-store" };

export const GET = withWorkspace(async ({ workspaceId }) => json(await getSender(await getDb(), workspaceId), { headers: noStore }), adminsOnly);

/** Secrets are accepted here and never returned: the response shows them masked. */
export const PUT = withWorkspace(async ({ request, workspaceId, actor }) => {
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  const input = (value ?? {}) as Parameters<typeof saveSenderSettings>[2];
  return json(await saveSenderSettings(await getDb(), workspaceId, input, auditActorFromRequest(request, actor)), { headers: noStore });
}, adminsOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
