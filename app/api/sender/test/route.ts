import { getDb } from "@/db";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { parseQuery } from "@/lib/http/request";
import { senderQuerySchema } from "@/lib/senders/schemas";
import { testSenderForm } from "@/lib/senders/tier-setting";

/**
 * Asks the Graph API about the phone number of the form (saved on `?senderId=`'s sender, else the
 * default one, when it is that sender's number); a Graph refusal is a result (ok: false), not an error.
 */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const { senderId } = parseQuery(senderQuerySchema, new URL(request.url));
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  return json(await testSenderForm(await getDb(), workspaceId, value ?? {}, { senderId }), { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
