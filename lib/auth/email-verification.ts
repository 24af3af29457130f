// Email verification: a single-use link mailed at sign-up (and on request), valid for two days and
// stored only as a hash. It works only in a session of the account it was mailed for, so the
// owner of a mailbox who clicks a link for an account someone else created with their address
// does not vouch for that account: the link proves the mailbox, the session proves the password.
// Until verified, an account signs in and works as usual, but is never joined to an OAuth login
// (see findOrCreateOAuthUser).
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/types";
import { emailVerificationTokens, users } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { sendMail, type MailTransport } from "@/lib/mail";
import { countAttempt, type ThrottleRule } from "./throttle";

export const VERIFICATION_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
/** Verification mails a user may ask for again, per hour. */
export const RESEND_WINDOW_SECONDS = 60 * 60;
export const RESEND_LIMIT_PER_USER = 5;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface VerificationMailOptions {
  /** Builds the link; null when the app's public URL is unknown (no link is mailed then). */
  verifyUrl: ((token: string) => string) | null;
  mail?: MailTransport;
  now?: Date;
}

/** Stores a new token for the user and mails its link in the background. */
export async function issueEmailVerification(db: Executor, user: { id: string; email: string }, options: VerificationMailOptions): Promise<void> {
  if (!options.verifyUrl) {
    console.error("Email verification needed, but APP_URL is not set: no verification link is mailed (it would have to trust the request's Host header).");
    return;
  }
  const token = randomBytes(32).toString("base64url");
  const now = options.now ?? new Date();
  await db.insert(emailVerificationTokens).values({
    id: newId("evt"),
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS),
  });
  void sendMail(verificationMail(user.email, options.verifyUrl(token)), options.mail).catch((error: unknown) => {
    console.error("Verification mail failed:", error instanceof Error ? error.message : error);
  });
}

function verificationMail(to: string, link: string) {
  return {
    to,
    subject: "Confirm your email address for Sendstream",
    text: [
      "Welcome to Sendstream. Confirm that this address is yours by opening this link while signed in to your account (it works once, for two days):",
      link,
      "If you did not create a Sendstream account, ignore this mail: an account nobody confirmed is never joined to a Google or GitHub sign-in for your address, and signing in that way later takes it over.",
    ].join("\n\n"),
  };
}

/** Whether the user's email address is verified. */
export async function isEmailVerified(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row?.at);
}

/** Mails a new link to a signed-in user who is not verified yet; false when already verified. Throttled per user. */
export async function resendEmailVerification(db: Executor, userId: string, options: VerificationMailOptions): Promise<boolean> {
  const [user] = await db.select({ id: users.id, email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.verifiedAt) return false;
  const rules: ThrottleRule[] = [{ bucket: `auth:verify-mail:user:${user.id}`, limit: RESEND_LIMIT_PER_USER, windowSeconds: RESEND_WINDOW_SECONDS }];
  const wait = await countAttempt(db, rules);
  if (wait !== null) {
    const minutes = Math.max(1, Math.ceil(wait / 60));
    throw new ApiError("rate_limited", `Too many verification mails. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, { headers: { "Retry-After": String(wait) } });
  }
  await issueEmailVerification(db, user, options);
  return true;
}

export type VerifyEmailResult = "verified" | "already_verified" | "other_account" | "invalid";

/**
 * Spends a verification token in the session of the user it was mailed to and marks the address
 * verified; every other open link of the user stops working. A token of another account is left
 * unspent ("other_account"); an unknown, used or expired one is "invalid" (or "already_verified"
 * when the user has been verified meanwhile).
 */
export async function verifyEmail(db: Executor, token: string, signedInUserId: string): Promise<VerifyEmailResult> {
  const tokenHash = hashToken(token.trim());
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(emailVerificationTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, tokenHash),
          eq(emailVerificationTokens.userId, signedInUserId),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: emailVerificationTokens.userId });
    if (spent) {
      await tx.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, spent.userId));
      await tx
        .update(emailVerificationTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailVerificationTokens.userId, spent.userId), isNull(emailVerificationTokens.usedAt)));
      return "verified";
    }
    const [row] = await tx.select({ userId: emailVerificationTokens.userId }).from(emailVerificationTokens).where(eq(emailVerificationTokens.tokenHash, tokenHash)).limit(1);
    if (row && row.userId !== signedInUserId) return "other_account";
    const [user] = await tx.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, signedInUserId)).limit(1);
    return user?.at ? "already_verified" : "invalid";
  });
}
