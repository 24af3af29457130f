import { getDb } from "@/db";
import { signUp, signUpSchema } from "@/lib/auth";
import { accountLinkBase, tokenLink } from "@/lib/auth/mail-links";
import { assertSignUpAllowed } from "@/lib/auth/sign-in";
import { clientIp } from "@/lib/http/client-ip";
import { KIB, readJsonBody } from "@/lib/http/body";
import { assertSameOrigin, json, methodNotAllowed, withPublic } from "@/lib/routing/route";

export const POST = withPublic(async ({ request }) => {
  assertSameOrigin(request);
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  const input = signUpSchema.parse(value);
  const db = await getDb();
  await assertSignUpAllowed(db, clientIp(request));
  // The same answer for a new and a taken email: the form signs in next, and only the right
  // password for an existing account gets further than "incorrect email or password".
  await signUp(db, input, { verifyUrl: tokenLink(accountLinkBase(request), "/verify-email") });
  return json({ ok: true }, { status: 201 });
});

export const GET = methodNotAllowed(["POST"]);
