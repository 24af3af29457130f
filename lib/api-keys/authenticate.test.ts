import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { ApiError } from "@/lib/http/errors";
import { countingDb } from "@/lib/testing/counting-db";
import { createTestAccount } from "@/lib/testing/factories";
import { authenticateApiKey, lastUsedIsStale, readPresentedApiKey, recordApiKeyUse, type HeaderReader } from "./authenticate";
import { generateApiKey } from "./format";
import { createApiKey } from "./service";

/** Header values exactly as given, bypassing the Fetch API's own normalisation and validation. */
function rawHeaders(values: Record<string, string>): HeaderReader {
  const lower = Object.fromEntries(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => lower[name.toLowerCase()] ?? null };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("authenticateApiKey", () => {
  it("rejects malformed and bad-checksum keys with 401 without a database read", async () => {
    const { db, statements } = await countingDb();
    const key = generateApiKey();
    const values = [
      ` ${key}`,
      `${key} `,
      `\t${key}`,
      `${key}\n`,
      `${key}\r\nx-evil: 1`,
      `${key.slice(0, 12)}\u0000${key.slice(13)}`,
      `${key.slice(0, 12)}О${key.slice(13)}`, // Cyrillic "О" for "O"
      `ss_${"a".repeat(8192)}`,
      "x".repeat(8192),
      key.slice(0, -1) + (key.endsWith("z") ? "y" : "z"),
    ];
    for (const value of values) {
      const forms = [rawHeaders({ "x-api-key": value })];
      // RFC 6750 allows several spaces after "Bearer", so leading spaces are only stray in x-api-key.
      if (!value.startsWith(" ")) forms.push(rawHeaders({ authorization: `Bearer ${value}` }));
      for (const headers of forms) {
        const error = await rejection(authenticateApiKey(db, headers));
        expect(error.status).toBe(401);
        expect(new Headers(error.headers).get("www-authenticate")).toBe('Bearer realm="sendstream", error="invalid_token"');
      }
    }
    expect(statements).toEqual([]);
    // A well-formed key is looked up: the counter does see statements.
    await rejection(authenticateApiKey(db, rawHeaders({ "x-api-key": key })));
    expect(statements).toHaveLength(1);
  });

  it("returns the key without its secret and reads exactly one row per request", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const created = await createApiKey(db, account.workspaceId, { userId: account.id, ip: null, userAgent: null }, { name: "CRM" });
    const counting = await countingDb();
    const key = await authenticateApiKey(counting.db, new Headers({ authorization: `Bearer ${created.key}` }));
    expect(key).toEqual({ id: created.id, name: "CRM", workspaceId: account.workspaceId, lastUsedAt: null, scope: { type: "full" } });
    expect(counting.statements).toHaveLength(1);
    expect(counting.statements[0]).toMatch(/"deleted_at" is null/);
  });

  it("reads x-api-key or Bearer, never both when they differ", () => {
    expect(readPresentedApiKey(rawHeaders({}))).toBeNull();
    expect(readPresentedApiKey(rawHeaders({ "X-Api-Key": "a" }))).toBe("a");
    expect(readPresentedApiKey(rawHeaders({ authorization: "bEaReR a" }))).toBe("a");
    expect(readPresentedApiKey(rawHeaders({ authorization: "Bearer" }))).toBe("");
    expect(readPresentedApiKey(rawHeaders({ authorization: "Bearer   a" }))).toBe("a");
    expect(readPresentedApiKey(rawHeaders({ authorization: "Bearer a " }))).toBe("a ");
    expect(readPresentedApiKey(rawHeaders({ authorization: "Basic a" }))).toBeNull();
    expect(readPresentedApiKey(rawHeaders({ authorization: "Bearera" }))).toBeNull();
    expect(readPresentedApiKey(rawHeaders({ "x-api-key": "a", authorization: "Bearer a" }))).toBe("a");
    expect(() => readPresentedApiKey(rawHeaders({ "x-api-key": "a", authorization: "Bearer b" }))).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});

describe("recordApiKeyUse", () => {
  it("writes once for a burst of 1,000 successful authentications", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const created = await createApiKey(db, account.workspaceId, { userId: account.id, ip: null, userAgent: null }, { name: "Burst" });
    const counting = await countingDb();
    const headers = new Headers({ "x-api-key": created.key });
    for (let i = 0; i < 1000; i++) {
      const key = await authenticateApiKey(counting.db, headers);
      await recordApiKeyUse(counting.db, key);
    }
    const updates = counting.statements.filter((statement) => /^update "api_keys"/i.test(statement));
    const selects = counting.statements.filter((statement) => /^select/i.test(statement));
    expect(updates).toHaveLength(1);
    expect(selects).toHaveLength(1000);
    expect(updates[0]).toMatch(/"deleted_at" is null/);
  });

  it("only skips the write while the value read is less than a minute old", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(lastUsedIsStale(null, now)).toBe(true);
    expect(lastUsedIsStale(new Date("2026-01-01T11:59:01Z"), now)).toBe(false);
    expect(lastUsedIsStale(new Date("2026-01-01T11:59:00Z"), now)).toBe(true);
  });
});
