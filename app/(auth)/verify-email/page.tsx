import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getDb } from "@/db";
import { getSessionUser, SIGN_IN_PATH } from "@/lib/auth";
import { verifyEmail, type VerifyEmailResult } from "@/lib/auth/email-verification";

// The token is in the URL: no Referer may carry it to another site.
export const metadata: Metadata = { title: "Confirm your email", referrer: "no-referrer" };

const OUTCOMES: Record<VerifyEmailResult | "incomplete", { title: string; text: string }> = {
  verified: { title: "Email address confirmed", text: "Thank you: your email address is confirmed." },
  already_verified: { title: "Email address confirmed", text: "Your email address was already confirmed. Nothing else to do." },
  other_account: {
    title: "This link is for another account",
    text: "You are signed in with an account this link was not sent to. Sign out, then open the link again and sign in with the account you created.",
  },
  invalid: { title: "This link no longer works", text: "It has expired or was already used. Ask for a new one from the notice at the top of any page." },
  incomplete: { title: "This link is incomplete", text: "Open the link from the mail again, exactly as it is." },
};

/**
 * The link from the verification mail. It counts only in a session of the account it was mailed
 * for (see lib/auth/email-verification.ts), so a visitor who is not signed in signs in first and
 * comes back here.
 */
export default async function VerifyEmailPage({ searchParams }: PageProps<"/verify-email">) {
  await connection();
  const { token } = await searchParams;
  let outcome: VerifyEmailResult | "incomplete" = "incomplete";
  if (typeof token === "string" && token.length > 0 && token.length <= 200) {
    const user = await getSessionUser();
    if (!user) redirect(`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(`/verify-email?token=${encodeURIComponent(token)}`)}&verify=1`);
    outcome = await verifyEmail(await getDb(), token, user.id);
  }
  const { title, text } = OUTCOMES[outcome];
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p role="status" className="mt-1.5 text-sm text-muted-foreground">
        {text}
      </p>
      <p className="mt-6 text-sm">
        <Link href="/campaigns" className="font-medium text-primary underline-offset-4 hover:underline">
          Go to your workspace
        </Link>
      </p>
    </div>
  );
}
