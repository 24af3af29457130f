import { getDb } from "@/db";
import { resendEmailVerification } from "@/lib/auth/email-verification";
import { accountLinkBase, tokenLink } from "@/lib/auth/mail-links";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";

/** Mails the signed-in user a new verification link (202), or says the address is verified already (200). */
export const POST = withWorkspace(async ({ request, actor }) => {
  const sent = await resendEmailVerification(await getDb(), actor.id, { verifyUrl: tokenLink(accountLinkBase(request), "/verify-email") });
  return sent ? json({ sent: true }, { status: 202 }) : json({ sent: false, verified: true });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
