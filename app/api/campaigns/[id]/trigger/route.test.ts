// Every row of the trigger status table (DESIGN "Trigger endpoint") through the real route
// handlers, with real API keys, on both paths.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { apiKeys, messages } from "@/db/schema";
import { generateApiKey } from "@/lib/api-keys/format";
import { withCountingGetDb } from "@/lib/testing/counting-db";
import { flushTriggerRequests } from "@/lib/trigger/requests";
import { createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { jobsSettled } from "@/lib/jobs/soon";
import * as outbound from "../../../../outbound/[id]/route";
import * as trigger from "./route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const paths: { name: string; url: (id: string) => string; module: Record<string, Handler> }[] = [
  { name: "/api/campaigns/{id}/trigger", url: (id) => `http://localhost/api/campaigns/${id}/trigger`, module: trigger as unknown as Record<string, Handler> },
  { name: "/outbound/{id}", url: (id) => `http://localhost/outbound/${id}`, module: outbound as unknown as Record<string, Handler> },
];

function call(
  path: (typeof paths)[number],
  campaignId: string,
  options: { method?: string; key?: string | null; body?: string; headers?: Record<string, string>; query?: string } = {},
): Promise<Response> {
  const method = options.method ?? "POST";
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers["x-api-key"] = options.key;
  const request = new Request(`${path.url(campaignId)}${options.query ?? ""}`, {
    method,
    headers,
    body: method === "POST" || method === "PUT" || method === "PATCH" ? (options.body ?? "{}") : undefined,
  });
  return path.module[method]!(request, { params: Promise.resolve({ id: campaignId }) });
}

async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as { type: string; title: string; status: number; detail: string; errors?: { path: string }[] };
  expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  return body;
}

const valid = JSON.stringify({ phone: "+14155552671", order: "ORD-1", first_name: "Jane" });

let fx: TriggerFixture;
let db: DB;

/** Waits for the dispatch that accepted requests start after their response. */
async function dispatchSettled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await jobsSettled();
}

afterAll(dispatchSettled);

describe.each(paths)("POST $name", (path) => {
  it("202 with the message and Location; the message is stored queued and dispatched after", async () => {
    db = await getDb();
    fx = await createTriggerFixture();
    const response = await call(path, fx.campaignId, { key: fx.apiKey, body: valid });
    expect(response.status).toBe(202);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as { id: string; status: string; campaignId: string; phone: string; createdAt: string };
    expect(body).toMatchObject({ status: "queued", campaignId: fx.campaignId, phone: "+14155552671" });
    expect(response.headers.get("location")).toBe(`/api/v1/messages/${body.id}`);
    expect(response.headers.get("ratelimit-policy")).toContain('"campaign";q=600;w=60');
    const [row] = await db.select().from(messages).where(eq(messages.id, body.id));
    expect(row!.campaignId).toBe(fx.campaignId);
  });

  it("202 { data: [...] } for an array body", async () => {
    const f = await createTriggerFixture();
    const response = await call(path, f.campaignId, {
      key: f.apiKey,
      body: JSON.stringify([{ phone: "+14155552671", order: "A" }, { phone: "+447911123456", order: "B" }]),
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data).toHaveLength(2);
  });

  it("400 for malformed JSON", async () => {
    await expectProblem(await call(path, fx.campaignId, { key: fx.apiKey, body: '{"phone":' }), 400);
  });

  it("401 for a missing, malformed, unknown or deleted key, all alike", async () => {
    const f = await createTriggerFixture();
    const bodies: string[] = [];
    for (const key of [null, "ss_short", "nope", generateApiKey()]) {
      const response = await call(path, f.campaignId, { key, body: valid });
      const body = await expectProblem(response, 401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="sendstream"/);
      bodies.push(body.detail);
    }
    await db.update(apiKeys).set({ deletedAt: new Date() }).where(eq(apiKeys.id, f.apiKeyId));
    bodies.push((await expectProblem(await call(path, f.campaignId, { key: f.apiKey, body: valid }), 401)).detail);
    expect(new Set(bodies).size).toBe(1);
    expect(await db.select().from(messages).where(eq(messages.campaignId, f.campaignId))).toHaveLength(0);
  });

  it("401 does not consume the workspace's quota", async () => {
    const f = await createTriggerFixture({ rateLimitPerMinute: 1 });
    for (let i = 0; i < 3; i++) await expectProblem(await call(path, f.campaignId, { key: generateApiKey(), body: valid }), 401);
    expect((await call(path, f.campaignId, { key: f.apiKey, body: valid })).status).toBe(202);
  });

  it("404 for a missing campaign and for another workspace's campaign, identically", async () => {
    const other = await createTriggerFixture();
    const missing = await expectProblem(await call(path, "cmp_missing", { key: fx.apiKey, body: valid }), 404);
    const foreign = await expectProblem(await call(path, other.campaignId, { key: fx.apiKey, body: valid }), 404);
    expect(foreign.detail).toBe(missing.detail);
    expect(await db.select().from(messages).where(eq(messages.campaignId, other.campaignId))).toHaveLength(0);
  });

  it("405 with Allow: POST for other methods", async () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      const response = await call(path, fx.campaignId, { method, key: fx.apiKey });
      await expectProblem(response, 405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("409 naming the status for a paused campaign; nothing stored", async () => {
    const f = await createTriggerFixture({ status: "paused" });
    const body = await expectProblem(await call(path, f.campaignId, { key: f.apiKey, body: valid }), 409);
    expect(body.detail).toContain("paused");
    expect(await db.select().from(messages).where(eq(messages.campaignId, f.campaignId))).toHaveLength(0);
  });

  it("413 over 64 KiB for an object", async () => {
    const big = JSON.stringify({ phone: "+14155552671", order: "A", pad: "x".repeat(70_000) });
    await expectProblem(await call(path, fx.campaignId, { key: fx.apiKey, body: big }), 413);
  });

  it("415 for a body that is not JSON", async () => {
    await expectProblem(await call(path, fx.campaignId, { key: fx.apiKey, body: "phone=1", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415);
  });

  it("422 with per-field errors, array paths like [1].phone", async () => {
    const body = await expectProblem(
      await call(path, fx.campaignId, { key: fx.apiKey, body: JSON.stringify([{ phone: "+14155552671", order: "A" }, { phone: "12345", order: "B" }]) }),
      422,
    );
    expect(body.errors).toEqual([expect.objectContaining({ path: "[1].phone", code: "invalid_phone" })]);
  });

  it("429 with integer Retry-After and RateLimit headers", async () => {
    const f = await createTriggerFixture({ rateLimitPerMinute: 1 });
    expect((await call(path, f.campaignId, { key: f.apiKey, body: valid })).status).toBe(202);
    const response = await call(path, f.campaignId, { key: f.apiKey, body: valid });
    await expectProblem(response, 429);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(response.headers.get("ratelimit-policy")).toBe('"key";q=1200;w=60, "campaign";q=1;w=60');
    expect(response.headers.get("ratelimit")).toMatch(/^"key";r=\d+;t=\d+, "campaign";r=0;t=\d+$/);
  });

  it("200 for ?dryRun=true, with nothing stored", async () => {
    const f = await createTriggerFixture();
    const response = await call(path, f.campaignId, { key: f.apiKey, body: valid, query: "?dryRun=true" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ dryRun: true, text: expect.stringContaining("Hi Jane") });
    expect(await db.select().from(messages).where(eq(messages.campaignId, f.campaignId))).toHaveLength(0);
  });

  it("Idempotency-Key: replay with Idempotent-Replay: true, 422 on a different body", async () => {
    const f = await createTriggerFixture();
    const headers = { "idempotency-key": "k-1" };
    const first = await call(path, f.campaignId, { key: f.apiKey, body: valid, headers });
    const again = await call(path, f.campaignId, { key: f.apiKey, body: valid, headers });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replay")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    await expectProblem(await call(path, f.campaignId, { key: f.apiKey, body: JSON.stringify({ phone: "+14155552671", order: "B" }), headers }), 422);
    expect(await db.select().from(messages).where(eq(messages.campaignId, f.campaignId))).toHaveLength(1);
  });

  it("an accepted request costs three statements: key lookup, context with rate limit, insert", async () => {
    const f = await createTriggerFixture();
    // Make "last used" fresh so the throttled post-response write is not part of the count.
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, f.apiKeyId));
    // Earlier tests' request log entries are written on a timer; write them now, outside the count.
    await flushTriggerRequests();
    const recordedStatements = await withCountingGetDb(async (recorded) => {
      const response = await call(path, f.campaignId, { key: f.apiKey, body: valid });
      expect(response.status).toBe(202);
      return [...recorded];
    });
    // The dispatch the request starts runs after the response under Next; outside a request scope it
    // starts at once, and its claim can be recorded before the response returns. So does the pruning
    // one accepted request in 1,000 starts (lib/trigger/handler.ts). Neither is the request's.
    const afterResponse = /for update skip locked|delete from (rate_limit_counters|idempotency_keys)/i;
    const statements = recordedStatements.filter((statement) => !afterResponse.test(statement));
    expect(statements, statements.join("\n")).toHaveLength(3);
    expect(statements[0]).toMatch(/from "api_keys"/);
    expect(statements.some((s) => /update "api_keys"/.test(s))).toBe(false);
  });
});

describe("database unavailable", () => {
  it("503 with Retry-After", async () => {
    const f = await createTriggerFixture();
    await dispatchSettled();
    const state = (globalThis as { __sendstreamDb?: { db?: Promise<DB> } }).__sendstreamDb!;
    const original = state.db;
    const client = postgres("postgres://postgres@127.0.0.1:1/none", { max: 1, connect_timeout: 2, onnotice: () => {} });
    state.db = Promise.resolve(drizzle(client) as unknown as DB);
    try {
      const response = await call(paths[0]!, f.campaignId, { key: f.apiKey, body: valid });
      await expectProblem(response, 503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      state.db = original;
      await client.end({ timeout: 1 });
    }
  });
});
