// The key-authentication rules (DESIGN "API keys", api-keys.md §4) through a real key-authenticated route.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { apiKeys } from "@/db/schema";
import { displayApiKey, generateApiKey, hashApiKey } from "@/lib/api-keys/format";
import { createApiKey, deleteApiKey, type AuditActor } from "@/lib/api-keys/service";
import { createTestAccount } from "@/lib/testing/factories";
import { withCountingGetDb } from "@/lib/testing/counting-db";
import { sessionCookie } from "@/lib/testing/api-factories";
import { GET, POST } from "./route";

const URL_ME = "http://localhost/api/v1/me";
const REQUEST_ID = "req-fixed";

function call(headers: Record<string, string> = {}, url = URL_ME): Promise<Response> {
  return GET(new Request(url, { headers: { "x-request-id": REQUEST_ID, ...headers } }), { params: Promise.resolve({}) });
}

async function newKey(name = "Shop") {
  const db = await getDb();
  const account = await createTestAccount();
  const actor: AuditActor = { userId: account.id, ip: null, userAgent: null };
  const created = await createApiKey(db, account.workspaceId, actor, { name });
  return { account, actor, ...created };
}

async function lastUsedAt(keyId: string): Promise<Date | null> {
  const db = await getDb();
  const [row] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId));
  return row!.lastUsedAt;
}

/** Everything a caller can observe about a 401 except the request id it chose itself. */
async function observable(response: Response) {
  return {
    status: response.status,
    wwwAuthenticate: response.headers.get("www-authenticate"),
    cacheControl: response.headers.get("cache-control"),
    contentType: response.headers.get("content-type"),
    body: await response.text(),
  };
}

describe("GET /api/v1/me with an API key", () => {
  let invalidTokenResponse: Awaited<ReturnType<typeof observable>>;

  beforeAll(async () => {
    invalidTokenResponse = await observable(await call({ "x-api-key": generateApiKey() }));
  });

  it("returns the key's workspace and key for x-api-key, Bearer and lower/upper-case bearer", async () => {
    const { account, id, key } = await newKey("Shopify store");
    const forms: Record<string, string>[] = [
      { "x-api-key": key },
      { authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { authorization: `BEARER ${key}` },
      { "x-api-key": key, authorization: `Bearer ${key}` },
    ];
    for (const headers of forms) {
      const response = await call(headers);
      expect(response.status, JSON.stringify(Object.keys(headers))).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = await response.json();
      expect(body).toEqual({
        workspace: { id: account.workspaceId, name: expect.any(String) },
        key: { id, name: "Shopify store" },
        user: null,
      });
    }
  });

  it("answers for the signed-in web app with the user and no key", async () => {
    const account = await createTestAccount({ name: "Maria", email: `maria-${Date.now()}@example.test` });
    const response = await call({ cookie: await sessionCookie({ userId: account.id, workspaceId: account.workspaceId, email: account.email, name: account.name }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      workspace: { id: account.workspaceId, name: expect.any(String) },
      key: null,
      user: { id: account.id, email: account.email, name: "Maria" },
    });
  });

  it("answers 401 without an error code when no key is sent", async () => {
    const response = await call();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sendstream"');
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({ status: 401, title: "Unauthorized", type: expect.any(String), detail: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|stack/i);
  });

  it("answers the same 401 for malformed, bad-checksum, unknown and stored-value keys", async () => {
    const { key } = await newKey();
    const badChecksum = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    expect(invalidTokenResponse.status).toBe(401);
    expect(invalidTokenResponse.wwwAuthenticate).toBe('Bearer realm="sendstream", error="invalid_token"');
    const variants: Record<string, string>[] = [
      { "x-api-key": "" },
      { "x-api-key": `sk_${key.slice(3)}` },
      { "x-api-key": `SS_${key.slice(3)}` },
      { "x-api-key": key.slice(0, -1) },
      { "x-api-key": `${key}0` },
      { "x-api-key": `ss_${"-".repeat(38)}` },
      { "x-api-key": `${key.slice(0, 20)} ${key.slice(21)}` },
      { "x-api-key": `${key} trailing` },
      { "x-api-key": `ss_${"A".repeat(8192)}` },
      { "x-api-key": "' OR '1'='1' --" },
      { "x-api-key": `${key}'; DROP TABLE api_keys; --` },
      { "x-api-key": badChecksum },
      { "x-api-key": hashApiKey(key) },
      { "x-api-key": displayApiKey(key).replace("…", "...") },
      { "x-api-key": generateApiKey() },
      { authorization: "Bearer" },
      { authorization: `Bearer ${badChecksum}` },
      { authorization: `bearer ${generateApiKey()}` },
      { authorization: `Bearer ${key} extra` },
    ];
    for (const headers of variants) {
      const label = JSON.stringify(headers).slice(0, 80);
      expect(await observable(await call(headers)), label).toEqual(invalidTokenResponse);
    }
  });

  it("ignores keys in the query string", async () => {
    const { key } = await newKey();
    for (const name of ["api_key", "apiKey", "key", "access_token", "x-api-key"]) {
      const response = await call({}, `${URL_ME}?${name}=${key}`);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sendstream"');
    }
  });

  it("answers 400 when x-api-key and Bearer carry different keys, even if both are valid", async () => {
    const first = await newKey();
    const second = await newKey();
    const response = await call({ "x-api-key": first.key, authorization: `Bearer ${second.key}` });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json()).detail).toMatch(/different keys/);
    const withGarbage = await call({ "x-api-key": first.key, authorization: "Bearer nonsense" });
    expect(withGarbage.status).toBe(400);
  });

  it("ignores other Authorization schemes", async () => {
    const { key } = await newKey();
    expect((await call({ authorization: `Basic ${btoa(`${key}:`)}` })).status).toBe(401);
    expect((await call({ authorization: key })).status).toBe(401);
    expect((await call({ authorization: `Basic abc`, "x-api-key": key })).status).toBe(200);
  });

  it("answers a deleted key's very next request with the same 401 as an unknown key", async () => {
    const db = await getDb();
    const { account, actor, id, key } = await newKey();
    expect((await call({ "x-api-key": key })).status).toBe(200);
    await deleteApiKey(db, account.workspaceId, actor, id);
    expect(await observable(await call({ "x-api-key": key }))).toEqual(invalidTokenResponse);
    expect(await observable(await call({ authorization: `Bearer ${key}` }))).toEqual(invalidTokenResponse);
  });

  it("lets no request that starts after the delete returns succeed, under concurrent load (50 rounds)", async () => {
    const db = await getDb();
    for (let round = 0; round < 50; round++) {
      const { account, actor, id, key } = await newKey(`round ${round}`);
      let deleteReturned = false;
      const results: { startedAfterDelete: boolean; status: number }[] = [];
      const fire = async () => {
        const startedAfterDelete = deleteReturned;
        const response = await call({ "x-api-key": key });
        results.push({ startedAfterDelete, status: response.status });
      };
      const load = (async () => {
        for (let wave = 0; wave < 6; wave++) {
          await Promise.all(Array.from({ length: 5 }, fire));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, round % 5));
      await deleteApiKey(db, account.workspaceId, actor, id);
      deleteReturned = true;
      await load;
      await Promise.all(Array.from({ length: 5 }, fire));
      const after = results.filter((result) => result.startedAfterDelete);
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((result) => result.status !== 401)).toEqual([]);
      expect(results.every((result) => result.status === 200 || result.status === 401)).toBe(true);
    }
  }, 120_000);

  it("records last used on the first successful request, and then not again within a minute", async () => {
    const { id, key } = await newKey();
    expect(await lastUsedAt(id)).toBeNull();
    await withCountingGetDb(async (statements) => {
      const updates = () => statements.filter((statement) => /^update "api_keys"/i.test(statement)).length;
      expect((await call({ "x-api-key": key })).status).toBe(200);
      await vi.waitFor(async () => expect(await lastUsedAt(id)).not.toBeNull(), { timeout: 10_000, interval: 50 });
      expect(updates()).toBe(1);
      const first = await lastUsedAt(id);
      for (let i = 0; i < 200; i++) expect((await call({ "x-api-key": key })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(updates()).toBe(1);
      expect(await lastUsedAt(id)).toEqual(first);
    });
  });

  it("records use again once the stored time is over a minute old, and never on a 401", async () => {
    const db = await getDb();
    const { account, actor, id, key } = await newKey();
    await db.update(apiKeys).set({ lastUsedAt: sql`now() - interval '61 seconds'` }).where(eq(apiKeys.id, id));
    const stale = await lastUsedAt(id);
    await withCountingGetDb(async (statements) => {
      const updates = () => statements.filter((statement) => /^update "api_keys"/i.test(statement)).length;
      expect((await call({ "x-api-key": key.slice(0, -1) + (key.endsWith("x") ? "y" : "x") })).status).toBe(401);
      expect((await call({ "x-api-key": key })).status).toBe(200);
      await vi.waitFor(async () => expect((await lastUsedAt(id))!.getTime()).toBeGreaterThan(stale!.getTime()), { timeout: 10_000, interval: 50 });
      expect(updates()).toBe(1);
    });
    // A deleted key's row is not modified by requests made with it.
    await db.update(apiKeys).set({ lastUsedAt: null }).where(eq(apiKeys.id, id));
    await deleteApiKey(db, account.workspaceId, actor, id);
    expect((await call({ "x-api-key": key })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastUsedAt(id)).toBeNull();
  });

  it("refuses other methods with 405 and Allow", async () => {
    const response = await POST(new Request(URL_ME, { method: "POST" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});
