import { getDb } from "@/db";
import { resetPassword } from "@/lib/auth/password-reset";
import { KIB, readJsonBody } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { assertSameOrigin, json, methodNotAllowed, withPublic } from "@/lib/routing/route";

export const POST = withPublic(async ({ request }) => {
  assertSameOrigin(request);
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  const { email } = await resetPassword(await getDb(), (value ?? {}) as { token: string; password: string }, {
    requester: { ip: clientIp(request), userAgent: request.headers.get("user-agent")?.slice(0, 512) ?? null },
  });
  return json({ email }, { headers: { "Cache-Control": "no-store" } });
});

export const GET = methodNotAllowed(["POST"]);
