import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { POST } from "./route";

const ctx = { params: Promise.resolve({}) };

function signUp(body: unknown, headers: Record<string, string> = {}) {
  return POST(
    new Request("http://app.test/api/auth/sign-up", {
      method: "POST",
      headers: { origin: "http://app.test", "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    ctx,
  );
}

describe("POST /api/auth/sign-up", () => {
  it("creates an account and never echoes the password", async () => {
    const email = `new-${Date.now()}@example.test`;
    const response = await signUp({ name: "Grace", email, password: "hopper-1906" });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({ id: expect.stringMatching(/^usr_/), email, name: "Grace" });
    const [row] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(row?.passwordHash).not.toContain("hopper");
  });

  it("answers 422 with field errors for bad input", async () => {
    const response = await signUp({ name: "Grace", email: "not-an-email", password: "x" });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["email", "password"]);
  });

  it("answers 400 for malformed JSON and 403 for a cross-site request", async () => {
    expect((await signUp("{nope")).status).toBe(400);
    expect((await signUp({ name: "x" }, { origin: "http://evil.test" })).status).toBe(403);
  });

  it("answers 400, never 500, for a 10 KB body nested 5,000 levels deep", async () => {
    const response = await signUp("[".repeat(5000) + "]".repeat(5000));
    expect(response.status).toBe(400);
    expect((await response.json()).type).toBe("/docs/api#error-malformed_json");
  });
});
