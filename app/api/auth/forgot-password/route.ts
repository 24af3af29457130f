import { getDb } from "@/db";
import { accountLinkBase, tokenLink } from "@/lib/auth/mail-links";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { KIB, readJsonBody } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { assertSameOrigin, json, methodNotAllowed, runAfterResponse, withPublic } from "@/lib/routing/route";

/** Always 202 with the same body: whether the email has an account is never told. */
export const POST = withPublic(async ({ request, requestId }) => {
  assertSameOrigin(request);
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  await requestPasswordReset(await getDb(), (value ?? {}) as { email: string }, {
    requester: { ip: clientIp(request), userAgent: request.headers.get("user-agent")?.slice(0, 512) ?? null },
    resetUrl: tokenLink(accountLinkBase(request), "/reset-password"),
    defer: (task) => runAfterResponse(requestId, "password reset request", task),
  });
  return json({ ok: true }, { status: 202, headers: { "Cache-Control": "no-store" } });
});

export const GET = methodNotAllowed(["POST"]);
