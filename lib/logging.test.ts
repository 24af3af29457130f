import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { runRoute } from "@/lib/routing/route";
import { createTestAccount } from "@/lib/testing/factories";
import { describeError } from "./logging";

const PHONE = "+4915112345678";

/** A real unique violation whose parameters hold a phone number and an email. */
async function failingInsert(): Promise<unknown> {
  const account = await createTestAccount();
  const db = await getDb();
  return db
    .insert(users)
    .values({ id: `usr_dup${Date.now()}`, email: account.email, name: PHONE })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("describeError", () => {
  it("gives a failed query's SQLSTATE and message, never its parameters", async () => {
    const error = await failingInsert();
    expect(String((error as Error).message)).toContain(PHONE);
    const text = describeError(error);
    expect(text).toContain("23505");
    expect(text).toContain("duplicate key value violates unique constraint");
    expect(text).not.toContain(PHONE);
    expect(text).not.toContain("@example.test");
    expect(text).not.toContain("params");
  });

  it("keeps other errors' names, messages and stack frames", () => {
    const text = describeError(new TypeError("x is not a function", { cause: Object.assign(new Error("socket"), { code: "ECONNRESET" }) }));
    expect(text).toMatch(/^TypeError: x is not a function ← caused by Error \[ECONNRESET\]: socket\n\s+at /);
    expect(describeError("plain")).toBe("plain");
  });

  it("is what a route logs when a query fails", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.message}\n${a.stack}` : JSON.stringify(a))).join(" "));
    });
    const response = await runRoute(new Request("http://localhost/api/v1/x", { method: "POST" }), async () => {
      throw await failingInsert();
    });
    expect(response.status).toBe(500);
    expect(logged.join("\n")).toContain("23505");
    expect(logged.join("\n")).not.toContain(PHONE);
  });
});
