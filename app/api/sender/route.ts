import { getDb } from "@/db";
import { auditActorFromRequest } from "@/lib/audit/service";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery } from "@/lib/http/request";
import { senderQuerySchema } from "@/lib/senders/schemas";
import { getSender } from "@/lib/senders/service";
import { saveSenderSettings } from "@/lib/senders/tier-setting";

const noStore = { "Cache-Control": "no-store" };

/** The settings form of one sender (`?senderId=`, else the default one), secrets masked. */
export const GET = withWorkspace(async ({ request, workspaceId }) => {
  const { senderId } = parseQuery(senderQuerySchema, new URL(request.url));
  return json(await getSender(await getDb(), workspaceId, senderId), { headers: noStore });
}, adminsOnly);

/** Secrets are accepted here and never returned: the response shows them masked. */
export const PUT = withWorkspace(async ({ request, workspaceId, actor }) => {
  const { senderId } = parseQuery(senderQuerySchema, new URL(request.url));
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  const input = (value ?? {}) as Parameters<typeof saveSenderSettings>[2];
  return json(await saveSenderSettings(await getDb(), workspaceId, input, auditActorFromRequest(request, actor), { senderId }), { headers: noStore });
}, adminsOnly);

export const POST = methodNotAllowed(["GET", "PUT"]);
export const PATCH = methodNotAllowed(["GET", "PUT"]);
