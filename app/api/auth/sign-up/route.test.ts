import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
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
    expect(await response.json()).toEqual({ ok: true });
    const [row] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(row?.name).toBe("Grace");
    expect(row?.passwordHash).not.toContain("hopper");
  });

  it("answers a taken email exactly like a new one and tells the owner by mail", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const email = `taken-${Date.now()}@example.test`;
      const first = await signUp({ name: "Grace", email, password: "hopper-1906" });
      const second = await signUp({ name: "Eve", email: email.toUpperCase(), password: "another-passphrase" });
      expect(second.status).toBe(first.status);
      expect(await second.text()).toBe(await first.text());
      expect([...second.headers.keys()].sort()).toEqual([...first.headers.keys()].sort());
      const rows = await (await getDb()).select().from(users).where(eq(users.email, email));
      expect(rows.map((row) => row.name)).toEqual(["Grace"]);
      await vi.waitFor(() => expect(info.mock.calls.flat().join("\n")).toContain(`mail to ${email}: Someone tried to sign up`));
    } finally {
      info.mockRestore();
    }
  });

  it("refuses a short or common password", async () => {
    for (const password of ["12345678", "short-pw1", "qwertyuiop", "Password123"]) {
      const response = await signUp({ name: "Grace", email: `pw-${Date.now()}@example.test`, password });
      expect(response.status).toBe(422);
      expect(new Set((await response.json()).errors.map((e: { path: string }) => e.path))).toEqual(new Set(["password"]));
    }
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
