import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { createAccount, findOrCreateOAuthUser } from "./accounts";
import { authOptions } from "./options";
import { fetchGitHubEmails, githubProfileWithVerifiedEmail, OAuthEmailNotVerifiedError, verifiedOAuthEmail } from "./oauth";
import { signUpSchema } from "./schemas";
import { signInErrorMessage } from "./sign-in-errors";

const unique = () => `oauth-${Math.random().toString(36).slice(2)}@example.test`;

describe("verifiedOAuthEmail", () => {
  it("accepts Google's email only when email_verified is true", () => {
    expect(verifiedOAuthEmail("google", { email: "Ada@Example.test", email_verified: true })).toBe("ada@example.test");
    expect(verifiedOAuthEmail("google", { email: "ada@example.test", email_verified: false })).toBeNull();
    expect(verifiedOAuthEmail("google", { email: "ada@example.test", email_verified: "true" })).toBeNull();
    expect(verifiedOAuthEmail("google", { email: "ada@example.test" })).toBeNull();
  });

  it("accepts GitHub's email only when its email list marked it verified", () => {
    const profile = { login: "ada", email: "public@example.test" };
    expect(verifiedOAuthEmail("github", profile)).toBeNull();
    const verified = githubProfileWithVerifiedEmail(profile, [
      { email: "other@example.test", primary: false, verified: true },
      { email: "Ada@Example.test", primary: true, verified: true },
    ]);
    expect(verifiedOAuthEmail("github", verified)).toBe("ada@example.test");
    const unverified = githubProfileWithVerifiedEmail(profile, [{ email: "ada@example.test", primary: true, verified: false }]);
    expect(verifiedOAuthEmail("github", unverified)).toBeNull();
    expect(verifiedOAuthEmail("github", githubProfileWithVerifiedEmail(profile, null))).toBeNull();
  });

  it("refuses unknown providers and profiles without an email", () => {
    expect(verifiedOAuthEmail("gitlab", { email: "ada@example.test", email_verified: true })).toBeNull();
    expect(verifiedOAuthEmail("google", { email_verified: true })).toBeNull();
    expect(verifiedOAuthEmail("google", undefined)).toBeNull();
  });

  it("reads GitHub's email list, and knows nothing when the call fails", async () => {
    const list = [{ email: "ada@example.test", primary: true, verified: true }];
    expect(await fetchGitHubEmails("t", async () => Response.json(list))).toEqual(list);
    expect(await fetchGitHubEmails("t", async () => new Response("no", { status: 403 }))).toBeNull();
    expect(await fetchGitHubEmails("t", async () => Promise.reject(new Error("offline")))).toBeNull();
  });
});

describe("OAuth account linking", () => {
  it("never attaches an unverified email to an existing account", async () => {
    const db = await getDb();
    const email = unique();
    const owner = await createAccount(db, signUpSchema.parse({ name: "Ada", email, password: "long enough pw" }));
    await expect(findOrCreateOAuthUser(db, { email, name: "Mallory", emailVerified: false })).rejects.toBeInstanceOf(OAuthEmailNotVerifiedError);
    expect(await findOrCreateOAuthUser(db, { email, name: "Ada", emailVerified: true })).toMatchObject({ id: owner.id });
  });

  it("creates no account for an unverified email either", async () => {
    const db = await getDb();
    const email = unique();
    await expect(findOrCreateOAuthUser(db, { email, name: "Mallory", emailVerified: false })).rejects.toBeInstanceOf(OAuthEmailNotVerifiedError);
    expect(await db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it("next-auth's signIn callback sends an unverified OAuth email back to the sign-in page with a reason", async () => {
    const signIn = authOptions.callbacks!.signIn!;
    const account = (provider: string) => ({ provider, type: "oauth" as const, providerAccountId: "1" });
    const user = { id: "1", email: "ada@example.test" };
    const refused = await signIn({ user, account: account("google"), profile: { email: "ada@example.test", email_verified: false } as never });
    expect(refused).toBe("/sign-in?error=OAuthEmailNotVerified");
    expect(signInErrorMessage("OAuthEmailNotVerified")).toMatch(/has not verified this email address/);
    expect(await signIn({ user, account: account("google"), profile: { email: "ada@example.test", email_verified: true } as never })).toBe(true);
    expect(await signIn({ user, account: account("github"), profile: { email: "ada@example.test" } as never })).not.toBe(true);
    expect(await signIn({ user, account: { provider: "credentials", type: "credentials", providerAccountId: "1" } })).toBe(true);
  });

  it("next-auth's jwt callback refuses an unverified email", async () => {
    const jwt = authOptions.callbacks!.jwt!;
    const email = unique();
    await createAccount(await getDb(), signUpSchema.parse({ name: "Ada", email, password: "long enough pw" }));
    const call = (profile: Record<string, unknown>) =>
      jwt({ token: {}, user: { id: "x", email, name: "Mallory" }, account: { provider: "google", type: "oauth", providerAccountId: "1" }, profile: profile as never });
    await expect(call({ email, email_verified: false })).rejects.toBeInstanceOf(OAuthEmailNotVerifiedError);
    expect(await call({ email, email_verified: true })).toMatchObject({ email });
  });
});
