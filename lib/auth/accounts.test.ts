import { count, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { memberships, senders, users, workspaces } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import type { Mail } from "@/lib/mail";
import { createAccount, signUp, verifyCredentials } from "./accounts";
import { COMMON_PASSWORDS } from "./common-passwords";
import { signUpSchema } from "./schemas";

const unique = () => `ada-${Math.random().toString(36).slice(2)}@Example.test`;

describe("accounts", () => {
  it("creates the user, their workspace, an owner membership and a sandbox sender", async () => {
    const db = await getDb();
    const input = signUpSchema.parse({ name: "Ada", email: unique(), password: "long enough", workspaceName: "Analytical Engines" });
    const account = await createAccount(db, input);
    expect(account.email).toBe(input.email.toLowerCase());
    const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, account.workspaceId));
    expect(workspace?.name).toBe("Analytical Engines");
    const [membership] = await db.select().from(memberships).where(eq(memberships.userId, account.id));
    expect(membership).toMatchObject({ workspaceId: account.workspaceId, role: "owner" });
    const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
    expect(sender?.provider).toBe("sandbox");
    const [user] = await db.select().from(users).where(eq(users.id, account.id));
    expect(user?.passwordHash).toMatch(/^scrypt\$/);
  });

  it("refuses a second account for the same email (any case) without writing anything", async () => {
    const db = await getDb();
    const email = unique();
    await createAccount(db, signUpSchema.parse({ name: "Ada", email, password: "long enough" }));
    const [before] = await db.select({ n: count() }).from(workspaces);
    const error = await createAccount(db, signUpSchema.parse({ name: "Eve", email: email.toUpperCase(), password: "long enough" })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    const [after] = await db.select({ n: count() }).from(workspaces);
    expect(after?.n).toBe(before?.n);
  });

  it("verifies credentials without telling an unknown email from a wrong password", async () => {
    const db = await getDb();
    const email = unique();
    const account = await createAccount(db, signUpSchema.parse({ name: "Ada", email, password: "right password" }));
    expect(await verifyCredentials(db, email.toUpperCase(), "right password")).toMatchObject({ id: account.id, workspaceId: account.workspaceId });
    expect(await verifyCredentials(db, email, "wrong password")).toBeNull();
    expect(await verifyCredentials(db, "nobody@example.test", "right password")).toBeNull();
  });
});

describe("signUp", () => {
  it("creates a new account, and leaves an existing one alone while mailing its owner", async () => {
    const db = await getDb();
    const sent: Mail[] = [];
    const mail = async (message: Mail) => void sent.push(message);
    const email = unique();
    const verifyUrl = (token: string) => `http://app.test/verify-email?token=${token}`;
    await signUp(db, signUpSchema.parse({ name: "Ada", email, password: "long enough" }), { mail, verifyUrl });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ to: email.toLowerCase(), subject: "Confirm your email address for Sendstream" });
    const [before] = await db.select({ n: count() }).from(workspaces);
    await expect(signUp(db, signUpSchema.parse({ name: "Eve", email: email.toUpperCase(), password: "eve's own password" }), { mail, verifyUrl })).resolves.toBeUndefined();
    const [after] = await db.select({ n: count() }).from(workspaces);
    expect(after?.n).toBe(before?.n);
    expect(await verifyCredentials(db, email, "eve's own password")).toBeNull();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ to: email.toLowerCase(), subject: expect.stringContaining("tried to sign up") });
  });
});

describe("signUpSchema", () => {
  it("explains each problem", () => {
    const result = signUpSchema.safeParse({ name: "", email: "nope", password: "short" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join("."), issue.message]));
    expect(messages).toEqual({ name: "Enter your name", email: "Enter a valid email address", password: "Use at least 10 characters" });
  });

  it("refuses passwords under 10 characters and the most common ones, in any case", () => {
    const password = (value: string) => signUpSchema.safeParse({ name: "A", email: "a@b.test", password: value }).success;
    expect(password("12345678")).toBe(false);
    expect(password("123456789")).toBe(false);
    for (const common of ["1234567890", "qwertyuiop", "Password123", "1q2w3e4r5t", "MANCHESTER"]) expect(password(common)).toBe(false);
    expect(password("correct horse battery")).toBe(true);
    expect(password("e".repeat(200))).toBe(true);
    expect(password("e".repeat(201))).toBe(false);
  });

  it("bundles at least the 1,000 most common passwords", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(1000);
    expect(COMMON_PASSWORDS.has("123456")).toBe(true);
  });
});
