import { getDb } from "@/db";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { getEnv } from "@/lib/env";
import { KIB, readJsonBody } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { originFromHeaders } from "@/lib/http/origin";
import { assertSameOrigin, json, methodNotAllowed, withPublic } from "@/lib/http/route";

/** Always 202 with the same body: whether the email has an account is never told. */
export const POST = withPublic(async ({ request }) => {
  assertSameOrigin(request);
  const { value } = await readJsonBody(request, { limitBytes: 4 * KIB });
  // The link's host comes from APP_URL: a forged Host header must not point a real token at another
  // site. Only in development does the request's own origin stand in for it.
  const env = getEnv();
  const base = env.APP_URL ?? (env.NODE_ENV === "production" ? null : (originFromHeaders(request.headers) ?? new URL(request.url).origin));
  await requestPasswordReset(await getDb(), (value ?? {}) as { email: string }, {
    requester: { ip: clientIp(request), userAgent: request.headers.get("user-agent")?.slice(0, 512) ?? null },
    resetUrl: base ? (token) => `${base.replace(/\/+$/, "")}/reset-password?token=${encodeURIComponent(token)}` : null,
  });
  return json({ ok: true }, { status: 202, headers: { "Cache-Control": "no-store" } });
});

export const GET = methodNotAllowed(["POST"]);
