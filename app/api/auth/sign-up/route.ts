import { getDb } from "@/db";
import { createAccount, signUpSchema } from "@/lib/auth";
import { KIB, readJsonBody } from "@/lib/http/body";
import { assertSameOrigin, json, methodNotAllowed, withPublic } from "@/lib/http/route";

export const POST = withPublic(async ({ request }) => {
  assertSameOrigin(request);
  const { value } = await readJsonBody(request, { limitBytes: 16 * KIB });
  const input = signUpSchema.parse(value);
  const user = await createAccount(await getDb(), input);
  return json({ id: user.id, email: user.email, name: user.name }, { status: 201 });
});

export const GET = methodNotAllowed(["POST"]);
