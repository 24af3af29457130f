import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { auditEvents, emailVerificationTokens, users } from "@/db/schema";
import { POST as resendRoute } from "@/app/api/auth/verify-email/resend/route";
import { GET as getMe } from "@/app/api/v1/me/route";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import type { Mail } from "@/lib/mail";
import { findOrCreateOAuthUser, isSessionCurrent, signUp, verifyCredentials } from "./accounts";
import { isEmailVerified, RESEND_LIMIT_PER_USER, resendEmailVerification, verifyEmail } from "./email-verification";
import { requestPasswordReset, resetPassword } from "./password-reset";
import { signUpSchema } from "./schemas";

const PASSWORD = "attacker-chosen-pw";
const verifyUrl = (token: string) => `http://app.test/verify-email?token=${encodeURIComponent(token)}`;
let counter = 0;
const uniqueEmail = () => `verify-${Date.now().toString(36)}-${(counter += 1)}@example.test`;

function outbox() {
  const sent: Mail[] = [];
  return { sent, mail: async (message: Mail) => void sent.push(message) };
}

function tokenIn(mail: Mail): string {
  const match = /\/verify-email\?token=(\S+)/.exec(mail.text);
  expect(match).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

/** Signs up through the form's path and returns the user and the token of the mailed link. */
async function signedUp(email = uniqueEmail()) {
  const db = await getDb();
  const { sent, mail } = outbox();
  await signUp(db, signUpSchema.parse({ name: "Ada", email, password: PASSWORD }), { verifyUrl, mail });
  await vi.waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({ to: email, subject: "Confirm your email address for Sendstream" });
  const user = await verifyCredentials(db, email, PASSWORD);
  expect(user).not.toBeNull();
  return { user: user!, token: tokenIn(sent[0]!) };
}

// Every sign-up hashes a password (slow by design): generous on a loaded machine.
describe("email verification", { timeout: 90_000 }, () => {
  it("mails a link at sign-up; the unverified account signs in and works meanwhile", async () => {
    const db = await getDb();
    const { user, token } = await signedUp();
    expect(await isEmailVerified(db, user.id)).toBe(false);
    const [row] = await db.select().from(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id));
    expect(row?.tokenHash).not.toContain(token);
    const cookie = await sessionCookie({ userId: user.id, workspaceId: user.workspaceId, sessionVersion: user.sessionVersion });
    expect((await callRoute(getMe, "GET", "/api/v1/me", { cookie })).status).toBe(200);
  });

  it("verifies only in the session of the account the link was mailed to, and only once", async () => {
    const db = await getDb();
    const { user, token } = await signedUp();
    const other = await signedUp();
    expect(await verifyEmail(db, token, other.user.id)).toBe("other_account");
    expect(await isEmailVerified(db, user.id)).toBe(false);
    expect(await verifyEmail(db, token, user.id)).toBe("verified");
    expect(await isEmailVerified(db, user.id)).toBe(true);
    expect(await verifyEmail(db, token, user.id)).toBe("already_verified");
    expect(await verifyEmail(db, "made-up-token", other.user.id)).toBe("invalid");
  });

  it("refuses an expired link", async () => {
    const db = await getDb();
    const { user, token } = await signedUp();
    await db.update(emailVerificationTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailVerificationTokens.userId, user.id));
    expect(await verifyEmail(db, token, user.id)).toBe("invalid");
    expect(await isEmailVerified(db, user.id)).toBe(false);
  });

  it("resends a link on request (throttled per user), and nothing once verified", async () => {
    const db = await getDb();
    const { user, token } = await signedUp();
    const cookie = await sessionCookie({ userId: user.id, workspaceId: user.workspaceId, sessionVersion: user.sessionVersion });
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const resent = await callRoute(resendRoute, "POST", "/api/auth/verify-email/resend", { cookie, headers: SAME_ORIGIN });
      expect(resent.status).toBe(202);
      await vi.waitFor(() => expect(info.mock.calls.flat().join("\n")).toContain(`mail to ${user.email}: Confirm your email address`));
      expect((await callRoute(resendRoute, "POST", "/api/auth/verify-email/resend", {})).status).toBe(401);
    } finally {
      info.mockRestore();
    }
    const { mail } = outbox();
    for (let i = 1; i < RESEND_LIMIT_PER_USER; i++) expect(await resendEmailVerification(db, user.id, { verifyUrl, mail })).toBe(true);
    await expect(resendEmailVerification(db, user.id, { verifyUrl, mail })).rejects.toMatchObject({ code: "rate_limited" });
    // The first link still works: a new one does not spend the old ones.
    expect(await verifyEmail(db, token, user.id)).toBe("verified");
    expect(await resendEmailVerification(db, user.id, { verifyUrl, mail })).toBe(false);
  });

  it("counts a password reset through the mailed link as verification", async () => {
    const db = await getDb();
    const { user } = await signedUp();
    const { sent, mail } = outbox();
    await requestPasswordReset(db, { email: user.email }, { requester: { ip: null, userAgent: null }, resetUrl: (t) => `http://app.test/reset-password?token=${t}`, mail });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const token = /token=(\S+)/.exec(sent[0]!.text)![1]!;
    await resetPassword(db, { token, password: "the-owner's-own-pw" }, { requester: { ip: null, userAgent: null } });
    expect(await isEmailVerified(db, user.id)).toBe(true);
  });
});

describe("an OAuth sign-in for the address of an account", { timeout: 90_000 }, () => {
  it("takes over an unverified account: the password someone chose at sign-up and its sessions stop working", async () => {
    const db = await getDb();
    // Someone signs up with the victim's address, which they cannot verify, and stays signed in.
    const { user: squatter } = await signedUp();
    const squatterSession = await sessionCookie({ userId: squatter.id, workspaceId: squatter.workspaceId, sessionVersion: squatter.sessionVersion });
    // The owner of the address signs in with Google later.
    const owner = await findOrCreateOAuthUser(db, { email: squatter.email, name: "Victim", emailVerified: true });
    expect(owner.id).toBe(squatter.id);
    expect(owner.sessionVersion).toBe(squatter.sessionVersion + 1);
    expect(await verifyCredentials(db, squatter.email, PASSWORD)).toBeNull();
    expect((await callRoute(getMe, "GET", "/api/v1/me", { cookie: squatterSession })).status).toBe(401);
    expect(await isSessionCurrent(db, owner.id, owner.sessionVersion)).toBe(true);
    const [row] = await db.select({ passwordHash: users.passwordHash, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, owner.id));
    expect(row).toMatchObject({ passwordHash: null, verifiedAt: expect.any(Date) });
    const audit = await db.select().from(auditEvents).where(and(eq(auditEvents.workspaceId, owner.workspaceId), eq(auditEvents.action, "user.unverified_password_removed")));
    expect(audit).toHaveLength(1);
    // Signing in with Google again simply joins the (now verified) account.
    expect(await findOrCreateOAuthUser(db, { email: squatter.email, name: "Victim", emailVerified: true })).toMatchObject({ id: owner.id, sessionVersion: owner.sessionVersion });
  });

  it("joins a verified account and leaves its password alone", async () => {
    const db = await getDb();
    const { user, token } = await signedUp();
    expect(await verifyEmail(db, token, user.id)).toBe("verified");
    const joined = await findOrCreateOAuthUser(db, { email: user.email, name: "Ada", emailVerified: true });
    expect(joined).toMatchObject({ id: user.id, sessionVersion: user.sessionVersion });
    expect(await verifyCredentials(db, user.email, PASSWORD)).toMatchObject({ id: user.id });
  });

  it("creates a verified account for a new address", async () => {
    const db = await getDb();
    const email = uniqueEmail();
    const created = await findOrCreateOAuthUser(db, { email, name: "New", emailVerified: true });
    expect(await isEmailVerified(db, created.id)).toBe(true);
  });
});
