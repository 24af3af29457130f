import { getDb } from "@/db";
import { KIB, readJsonBody } from "@/lib/http/body";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/http/route";
import { testSenderConnection } from "@/lib/senders/service";

/** Asks the Graph API about the phone number; a Graph refusal is a result (ok: false), not an error. */
export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  return json(await testSenderConnection(await getDb(), workspaceId, (value ?? {}) as Parameters<typeof testSenderConnection>[2]), { headers: { "Cache-Control": "no-store" } });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
