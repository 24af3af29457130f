import { getDb } from "@/db";
import { KIB, readJsonBody } from "@/lib/http/body";
import { adminsOnly, json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { testSenderForm } from "@/lib/senders/tier-setting";

/** Asks the Graph API about the phone number; a Graph refusal is a result (ok: false), not an error. */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  return json(await testSenderForm(await getDb(), workspaceId, value ?? {}), { headers: { "Cache-Control": "no-store" } });
}, adminsOnly);

export const GET = methodNotAllowed(["POST"]);
