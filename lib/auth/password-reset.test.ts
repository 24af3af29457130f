import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { auditEvents, passwordResetTokens, users } from "@/db/schema";
import { POST as forgotPassword } from "@/app/api/auth/forgot-password/route";
import { POST as resetPasswordRoute } from "@/app/api/auth/reset-password/route";
import { toApiError } from "@/lib/http/problem";
import type { Mail } from "@/lib/mail";
import { createAccount } from "./accounts";
import { INVALID_RESET_LINK, RESET_LIMIT_PER_EMAIL, hashResetToken, requestPasswordReset, resetPassword } from "./password-reset";
import { GET as getMe } from "@/app/api/v1/me/route";
import { callRoute, sessionCookie } from "@/lib/testing/api-factories";
import { countingDb } from "@/lib/testing/counting-db";
import { isSessionCurrent, verifyCredentials } from "./accounts";

const requester = { ip: null, userAgent: "vitest" };
const ctx = { params: Promise.resolve({}) };

let counter = 0;
async function newAccount() {
  counter += 1;
  const email = `reset-${Date.now().toString(36)}-${counter}@example.test`;
  const user = await createAccount(await getDb(), { name: "Grace", email, password: "old-password-1906" });
  return user;
}

/** Requests a reset and returns the token from the link in the mail. */
async function requestToken(email: string): Promise<string> {
  const sent: Mail[] = [];
  await requestPasswordReset(await getDb(), { email }, { requester, resetUrl: (token) => `http://app.test/reset-password?token=${token}`, mail: async (mail) => void sent.push(mail) });
  await vi.waitFor(() => expect(sent).toHaveLength(1));
  const link = /http:\/\/app\.test\/reset-password\?token=(\S+)/.exec(sent[0]!.text);
  expect(link).not.toBeNull();
  return link![1]!;
}

async function failure(promise: Promise<unknown>) {
  return toApiError(await promise.then(() => expect.unreachable("should have failed"), (error: unknown) => error));
}

function post(route: typeof forgotPassword, path: string, body: unknown) {
  return route(
    new Request(`http://app.test${path}`, { method: "POST", headers: { origin: "http://app.test", "content-type": "application/json" }, body: JSON.stringify(body) }),
    ctx,
  );
}

// Several scrypt hashes per test: generous on a loaded machine.
describe("password reset", { timeout: 90_000 }, () => {
  it("mails a link whose token sets a new password once; the old password stops working", async () => {
    const db = await getDb();
    const user = await newAccount();
    const token = await requestToken(user.email.toUpperCase());
    const [row] = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(row?.tokenHash).toBe(hashResetToken(token));
    expect(row?.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(59 * 60 * 1000);

    expect(await resetPassword(db, { token, password: "brand-new-passphrase" }, { requester })).toEqual({ email: user.email });
    expect(await verifyCredentials(db, user.email, "brand-new-passphrase")).toMatchObject({ id: user.id });
    expect(await verifyCredentials(db, user.email, "old-password-1906")).toBeNull();

    // Single use: the same link again is refused and changes nothing.
    const again = await failure(resetPassword(db, { token, password: "a-third-passphrase" }, { requester }));
    expect(again).toMatchObject({ code: "validation_failed", detail: INVALID_RESET_LINK });
    expect(again.errors).toEqual([expect.objectContaining({ path: "token" })]);
    expect(await verifyCredentials(db, user.email, "brand-new-passphrase")).not.toBeNull();

    const audit = await db.select({ action: auditEvents.action }).from(auditEvents).where(and(eq(auditEvents.workspaceId, user.workspaceId), eq(auditEvents.targetId, user.id)));
    expect(audit.map((event) => event.action).sort()).toEqual(["user.password_reset", "user.password_reset_requested"]);
  });

  it("signs out every session the user had; a sign-in after the reset gets a working one", async () => {
    const db = await getDb();
    const user = await newAccount();
    const account = { userId: user.id, workspaceId: user.workspaceId, sessionVersion: user.sessionVersion };
    const before = await sessionCookie(account);
    expect((await callRoute(getMe, "GET", "/api/v1/me", { cookie: before })).status).toBe(200);

    await resetPassword(db, { token: await requestToken(user.email), password: "brand-new-passphrase" }, { requester });
    const stale = await callRoute(getMe, "GET", "/api/v1/me", { cookie: before });
    expect(stale.status).toBe(401);
    expect(await isSessionCurrent(db, user.id, user.sessionVersion)).toBe(false);

    const signedIn = await verifyCredentials(db, user.email, "brand-new-passphrase");
    expect(signedIn?.sessionVersion).toBe(user.sessionVersion + 1);
    const after = await sessionCookie({ ...account, sessionVersion: signedIn!.sessionVersion });
    expect((await callRoute(getMe, "GET", "/api/v1/me", { cookie: after })).status).toBe(200);
  });

  it("refuses an expired link, and a weak new password before spending the link", async () => {
    const db = await getDb();
    const user = await newAccount();
    const token = await requestToken(user.email);
    const weak = await failure(resetPassword(db, { token, password: "password123" }, { requester }));
    expect(weak.errors).toEqual([expect.objectContaining({ path: "password" })]);

    await db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.userId, user.id));
    const expired = await failure(resetPassword(db, { token, password: "brand-new-passphrase" }, { requester }));
    expect(expired.detail).toBe(INVALID_RESET_LINK);
    expect(await verifyCredentials(db, user.email, "old-password-1906")).not.toBeNull();
  });

  it("spends every open link of the user when one of them is used", async () => {
    const db = await getDb();
    const user = await newAccount();
    const first = await requestToken(user.email);
    const second = await requestToken(user.email);
    await resetPassword(db, { token: second, password: "brand-new-passphrase" }, { requester });
    expect((await failure(resetPassword(db, { token: first, password: "another-passphrase" }, { requester }))).detail).toBe(INVALID_RESET_LINK);
  });

  it("answers an unknown email exactly like a known one, and mails only the known one", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const user = await newAccount();
      const unknown = `nobody-${Date.now()}@example.test`;
      const known = await post(forgotPassword, "/api/auth/forgot-password", { email: user.email });
      const stranger = await post(forgotPassword, "/api/auth/forgot-password", { email: unknown });
      expect(stranger.status).toBe(202);
      expect(known.status).toBe(202);
      expect(await stranger.text()).toBe(await known.text());
      expect([...stranger.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
      await vi.waitFor(() => expect(info.mock.calls.flat().join("\n")).toContain(`mail to ${user.email}: Reset your Sendstream password`));
      expect(info.mock.calls.flat().join("\n")).not.toContain(unknown);
      const link = /\/reset-password\?token=(\S+)/.exec(info.mock.calls.flat().join("\n"));
      const reset = await post(resetPasswordRoute, "/api/auth/reset-password", { token: decodeURIComponent(link![1]!), password: "brand-new-passphrase" });
      expect(reset.status).toBe(200);
      const [row] = await (await getDb()).select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
      expect(row?.hash).not.toContain("brand-new");
    } finally {
      info.mockRestore();
    }
  });

  it("does the same work before answering whether or not the email has an account", async () => {
    const { db, statements } = await countingDb();
    const user = await newAccount();
    const run = async (email: string) => {
      const deferred: (() => Promise<void>)[] = [];
      const sent: Mail[] = [];
      statements.length = 0;
      await requestPasswordReset(db, { email }, { requester, resetUrl: (token) => `http://app.test/reset-password?token=${token}`, mail: async (mail) => void sent.push(mail), defer: (task) => void deferred.push(task) });
      const beforeAnswer = statements.map((statement) => statement.replace(/\s+/g, " "));
      for (const task of deferred) await task();
      return { beforeAnswer, sent };
    };
    const known = await run(user.email);
    const unknown = await run(`nobody-${Date.now()}@example.test`);
    expect(known.beforeAnswer).toEqual(unknown.beforeAnswer);
    expect(known.beforeAnswer).toHaveLength(1);
    expect(known.sent).toHaveLength(1);
    expect(unknown.sent).toEqual([]);
  });

  it("throttles requests per email, known or not, with Retry-After", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      for (const email of [(await newAccount()).email, `nobody-${Date.now()}@example.test`]) {
        for (let attempt = 0; attempt < RESET_LIMIT_PER_EMAIL; attempt++) {
          expect((await post(forgotPassword, "/api/auth/forgot-password", { email })).status).toBe(202);
        }
        const throttled = await post(forgotPassword, "/api/auth/forgot-password", { email });
        expect(throttled.status).toBe(429);
        expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await throttled.json()).detail).toMatch(/^Too many reset requests/);
      }
    } finally {
      info.mockRestore();
    }
  });

  it("refuses bad input with field errors and cross-site requests", async () => {
    const bad = await post(forgotPassword, "/api/auth/forgot-password", { email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual([expect.objectContaining({ path: "email" })]);
    const crossSite = await forgotPassword(
      new Request("http://app.test/api/auth/forgot-password", { method: "POST", headers: { origin: "http://evil.test", "content-type": "application/json" }, body: "{}" }),
      ctx,
    );
    expect(crossSite.status).toBe(403);
    expect((await post(resetPasswordRoute, "/api/auth/reset-password", { token: "made-up", password: "brand-new-passphrase" })).status).toBe(422);
  });
});
