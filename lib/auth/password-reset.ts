// Forgotten passwords: a single-use link by mail, valid for an hour, stored only as a hash.
// The request answers the same whether or not the email has an account, and both steps are
// throttled on the shared counters like sign-in.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/types";
import { memberships, passwordResetTokens, users } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { sendMail, type MailTransport } from "@/lib/mail";
import { hashPassword } from "./password";
import { forgotPasswordSchema, resetPasswordSchema, type ForgotPasswordInput, type ResetPasswordInput } from "./schemas";
import { countAttempt, signInEmailBucket, type ThrottleRule } from "./throttle";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Reset mails per address and requests per client address, per hour. */
export const RESET_WINDOW_SECONDS = 60 * 60;
export const RESET_LIMIT_PER_EMAIL = 5;
export const RESET_LIMIT_PER_IP = 50;

export const INVALID_RESET_LINK = "This reset link has expired or was already used. Request a new one.";

interface Requester {
  ip: string | null;
  userAgent: string | null;
}

export function resetRequestRules(email: string, ip: string | null): ThrottleRule[] {
  const rules: ThrottleRule[] = [{ bucket: `auth:reset:email:${email.toLowerCase()}`, limit: RESET_LIMIT_PER_EMAIL, windowSeconds: RESET_WINDOW_SECONDS }];
  if (ip) rules.push({ bucket: `auth:reset:ip:${ip}`, limit: RESET_LIMIT_PER_IP, windowSeconds: RESET_WINDOW_SECONDS });
  return rules;
}

function resetAttemptRules(ip: string | null): ThrottleRule[] {
  return ip ? [{ bucket: `auth:reset-confirm:ip:${ip}`, limit: RESET_LIMIT_PER_IP, windowSeconds: RESET_WINDOW_SECONDS }] : [];
}

async function throttle(db: Executor, rules: ThrottleRule[], what: string): Promise<void> {
  const wait = await countAttempt(db, rules);
  if (wait === null) return;
  const minutes = Math.max(1, Math.ceil(wait / 60));
  throw new ApiError("rate_limited", `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, { headers: { "Retry-After": String(wait) } });
}

export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Mails a reset link when the email has an account; does nothing visible otherwise. The answer
 * does the same work either way (the throttle's one statement): looking the email up, storing the
 * token and mailing it all happen after the answer, through `defer` (the route's after-response
 * hook), so its timing cannot tell whether the account exists.
 */
export async function requestPasswordReset(
  db: Executor,
  input: ForgotPasswordInput,
  options: {
    requester: Requester;
    /** Builds the link; null when the app's public URL is unknown (no link is mailed then). */
    resetUrl: ((token: string) => string) | null;
    mail?: MailTransport;
    now?: Date;
    /** Runs the work after the answer; by default started at once without being waited for. */
    defer?: (task: () => Promise<void>) => void;
  },
): Promise<void> {
  const { email } = forgotPasswordSchema.parse(input);
  await throttle(db, resetRequestRules(email, options.requester.ip), "reset requests for this email or network");
  const resetUrl = options.resetUrl;
  if (!resetUrl) {
    console.error("Password reset requested, but APP_URL is not set: no reset link is mailed (it would have to trust the request's Host header).");
    return;
  }
  const defer =
    options.defer ??
    ((task) =>
      void task().catch((error: unknown) => {
        console.error("Password reset request failed:", error instanceof Error ? error.message : error);
      }));
  defer(() => issuePasswordReset(db, email, { ...options, resetUrl }));
}

async function issuePasswordReset(
  db: Executor,
  email: string,
  options: { requester: Requester; resetUrl: (token: string) => string; mail?: MailTransport; now?: Date },
): Promise<void> {
  const [user] = await db
    .select({ id: users.id, email: users.email, workspaceId: memberships.workspaceId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  if (!user) return;
  const token = randomBytes(32).toString("base64url");
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      id: newId("prt"),
      userId: user.id,
      tokenHash: hashResetToken(token),
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    });
    await recordAudit(tx, {
      workspaceId: user.workspaceId,
      actor: { userId: null, apiKeyId: null, ...options.requester },
      action: "user.password_reset_requested",
      targetType: "user",
      targetId: user.id,
    });
  });
  await sendMail(resetMail(user.email, options.resetUrl(token)), options.mail);
}

function resetMail(to: string, link: string) {
  return {
    to,
    subject: "Reset your Sendstream password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Sendstream account.",
      `Choose a new password here (the link works once, for one hour):\n${link}`,
      "If you did not ask for this, ignore this mail: your password stays as it is.",
    ].join("\n\n"),
  };
}

/**
 * Sets a new password with a reset token. The token is spent in the same statement that checks it,
 * so two tabs racing with one link cannot both succeed; every other open link of the user stops
 * working too, every signed-in session of the user ends, and the sign-in lockout of the email is lifted.
 */
export async function resetPassword(db: Executor, input: ResetPasswordInput, options: { requester: Requester }): Promise<{ email: string }> {
  const { token, password } = resetPasswordSchema.parse(input);
  await throttle(db, resetAttemptRules(options.requester.ip), "password reset attempts from this network");
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.tokenHash, hashResetToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, sql`now()`)))
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) throw validationFailed([{ path: "token", code: "invalid_token", message: INVALID_RESET_LINK }], INVALID_RESET_LINK);
    // Raising the session version signs out every session of the user (a stolen one included).
    const [user] = await tx
      .update(users)
      // The link came by mail, so the address is proven too (and the password is the mailbox owner's now).
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1`, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, spent.userId))
      .returning({ id: users.id, email: users.email });
    if (!user) throw validationFailed([{ path: "token", code: "invalid_token", message: INVALID_RESET_LINK }], INVALID_RESET_LINK);
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await tx.execute(sql`delete from rate_limit_counters where bucket = ${signInEmailBucket(user.email)}`);
    const workspaces = await tx.select({ workspaceId: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, user.id));
    for (const { workspaceId } of workspaces) {
      const actor: AuditActor = { userId: user.id, apiKeyId: null, ...options.requester };
      await recordAudit(tx, { workspaceId, actor, action: "user.password_reset", targetType: "user", targetId: user.id });
    }
    return { email: user.email };
  });
}
