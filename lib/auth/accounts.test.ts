import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { memberships, senders, users, workspaces } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { createAccount, verifyCredentials } from "./accounts";
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
    expect(user?.passwordHash).toMatch(/^\$2[aby]\$12\$/);
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

describe("signUpSchema", () => {
  it("explains each problem", () => {
    const result = signUpSchema.safeParse({ name: "", email: "nope", password: "short" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join("."), issue.message]));
    expect(messages).toEqual({ name: "Enter your name", email: "Enter a valid email address", password: "Use at least 8 characters" });
  });

  it("refuses passwords bcrypt would silently truncate", () => {
    expect(signUpSchema.safeParse({ name: "A", email: "a@b.test", password: "é".repeat(37) }).success).toBe(false);
    expect(signUpSchema.safeParse({ name: "A", email: "a@b.test", password: "e".repeat(72) }).success).toBe(true);
  });
});
