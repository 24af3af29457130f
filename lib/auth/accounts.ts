import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/types";
import { emailVerificationTokens, memberships, passwordResetTokens, senders, users, workspaces, type MemberRole } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { sendMail } from "@/lib/mail";
import { issueEmailVerification, type VerificationMailOptions } from "./email-verification";
import { OAuthEmailNotVerifiedError } from "./oauth";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import type { signUpSchema } from "./schemas";
import type { z } from "zod";

export interface AccountUser {
  id: string;
  email: string;
  name: string;
  workspaceId: string;
  /** See `users.session_version`: a session signed in with an older value is no longer valid. */
  sessionVersion: number;
}

type SignUp = z.output<typeof signUpSchema>;

/** Creates a user with their own workspace (and its sandbox sender) in one transaction. */
export async function createAccount(db: Executor, input: SignUp): Promise<AccountUser> {
  const passwordHash = await hashPassword(input.password);
  return createUserWithWorkspace(db, { ...input, passwordHash });
}

/**
 * Sign-up that answers the same way whether or not the email already has an account, so it cannot
 * be used to find out who uses Sendstream. A new email gets its account, unverified, and a link to
 * verify it; an existing one is left alone and its owner is told. Either way one mail goes out in
 * the background, so the time taken does not tell either. Both paths hash the password and run the insert.
 */
export async function signUp(db: Executor, input: SignUp, options: Pick<VerificationMailOptions, "verifyUrl" | "mail">): Promise<void> {
  try {
    const account = await createAccount(db, input);
    await issueEmailVerification(db, account, options);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "account_exists") throw error;
    void sendMail(signUpAttemptMail(input.email), options.mail).catch((mailError: unknown) => {
      console.error("Sign-up notice mail failed:", mailError instanceof Error ? mailError.message : mailError);
    });
  }
}

function signUpAttemptMail(email: string) {
  return {
    to: email.toLowerCase(),
    subject: "Someone tried to sign up to Sendstream with your email",
    text: [
      "Someone just tried to create a Sendstream account with this email address, which already has an account.",
      "Nothing was changed. If it was you, sign in with your password instead.",
      "If it was not you, you can ignore this mail; your account and workspace are untouched.",
    ].join("\n\n"),
  };
}

export async function createUserWithWorkspace(
  db: Executor,
  input: {
    name: string;
    email: string;
    passwordHash: string | null;
    workspaceName?: string;
    /** Whether the address is known to be its owner's (an OAuth provider verified it); false for a sign-up form. */
    emailVerified?: boolean;
  },
): Promise<AccountUser> {
  const userId = newId("usr");
  const workspaceId = newId("ws");
  const email = input.email.toLowerCase();
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values({ id: userId, email, name: input.name, passwordHash: input.passwordHash, emailVerifiedAt: input.emailVerified ? sql`now()` : null })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (inserted.length === 0) {
      throw new ApiError("account_exists", "An account with this email address already exists. Sign in instead.");
    }
    await tx.insert(workspaces).values({ id: workspaceId, name: input.workspaceName || `${input.name}'s workspace` });
    await tx.insert(memberships).values({ workspaceId, userId, role: "owner" });
    await tx.insert(senders).values({ id: newId("snd"), workspaceId, provider: "sandbox", name: "Sandbox", isDefault: true, status: "connected" });
    return { id: userId, email, name: input.name, workspaceId, sessionVersion: 0 };
  });
}

/** Returns the user when the password matches; null otherwise, in the same time either way. */
export async function verifyCredentials(db: Executor, email: string, password: string): Promise<AccountUser | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash, sessionVersion: users.sessionVersion, workspaceId: memberships.workspaceId })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  const ok = await verifyPassword(password, row?.passwordHash);
  if (!ok || !row?.workspaceId) return null;
  if (row.passwordHash && needsRehash(row.passwordHash)) {
    // Only this moment has the plain password: move a legacy bcrypt hash to scrypt.
    const fresh = await hashPassword(password);
    await db.update(users).set({ passwordHash: fresh }).where(and(eq(users.id, row.id), eq(users.passwordHash, row.passwordHash)));
  }
  return { id: row.id, email: row.email, name: row.name, workspaceId: row.workspaceId, sessionVersion: row.sessionVersion };
}

/**
 * Finds or creates the user behind an OAuth sign-in, matched by email: only an email the provider
 * verified (see lib/auth/oauth.ts), or anyone could claim someone else's account. An existing
 * account is joined only when its own address was verified too; an unverified one may have been
 * created by anyone who typed the address at sign-up, so the provider's word takes it over instead:
 * its password goes and every session of it ends (see takeOverUnverifiedAccount).
 */
export async function findOrCreateOAuthUser(db: Executor, profile: { email: string; name: string; emailVerified: boolean }): Promise<AccountUser> {
  if (!profile.emailVerified) throw new OAuthEmailNotVerifiedError();
  const email = profile.email.toLowerCase();
  const [existing] = await db
    .select({ id: users.id, email: users.email, name: users.name, workspaceId: memberships.workspaceId, sessionVersion: users.sessionVersion, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  if (!existing) return createUserWithWorkspace(db, { email: profile.email, name: profile.name, passwordHash: null, emailVerified: true });
  const { emailVerifiedAt, ...account } = existing;
  if (emailVerifiedAt) return account;
  return (await takeOverUnverifiedAccount(db, account)) ?? findOrCreateOAuthUser(db, profile);
}

/**
 * An OAuth sign-in with a provider-verified address arriving at an account whose address was never
 * verified: the password (whoever chose it) is removed, every session and open reset or
 * verification link ends, and the address counts as verified from now on. The owner keeps the
 * account and can set a password again through "Forgot your password?". Null when the account was
 * verified meanwhile (it is then simply joined).
 */
async function takeOverUnverifiedAccount(db: Executor, account: AccountUser): Promise<AccountUser | null> {
  const userId = account.id;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ passwordHash: null, emailVerifiedAt: sql`now()`, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
      .returning({ id: users.id, email: users.email, name: users.name, sessionVersion: users.sessionVersion });
    if (!user) return null;
    await tx.update(passwordResetTokens).set({ usedAt: sql`now()` }).where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    await tx.update(emailVerificationTokens).set({ usedAt: sql`now()` }).where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
    const joined = await tx.select({ workspaceId: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, userId));
    for (const { workspaceId } of joined) {
      await recordAudit(tx, { workspaceId, actor: SYSTEM_ACTOR, action: "user.unverified_password_removed", targetType: "user", targetId: userId });
    }
    return { ...user, workspaceId: account.workspaceId };
  });
}

/** Whether a session signed in with `sessionVersion` is still valid (no password reset since). */
export async function isSessionCurrent(db: Executor, userId: string, sessionVersion: number): Promise<boolean> {
  const [row] = await db.select({ sessionVersion: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined && row.sessionVersion === sessionVersion;
}

/**
 * The session's role in its workspace, in the one lookup each request makes: null when the session
 * predates a password reset or the user is no longer a member (removed, or left) — out at once.
 */
export async function sessionRole(db: Executor, userId: string, sessionVersion: number, workspaceId: string): Promise<MemberRole | null> {
  const [row] = await db
    .select({ sessionVersion: users.sessionVersion, role: memberships.role })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, workspaceId)))
    .where(eq(users.id, userId))
    .limit(1);
  return row && row.sessionVersion === sessionVersion ? row.role : null;
}
