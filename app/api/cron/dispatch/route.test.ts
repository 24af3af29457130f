import { eq } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { getDb } from "@/db";
import { bulkSnapshotChunks } from "@/db/schema";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { bulkStatusCounts, createBulkFixture } from "@/lib/bulk/test-fixtures";
import { ENGINE_JOBS } from "@/lib/engine";
import { resetEnvCache } from "@/lib/env";
import { CHAIN_LEASE, CHAIN_TOKEN_HEADER } from "@/lib/jobs/chain";
import { leaseHeld } from "@/lib/jobs/lease";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";
import { GET, POST } from "./route";

const ctx = { params: Promise.resolve({}) };
const SECRET = "cron-secret-for-tests-0123456789";
const call = (handler: typeof GET, authorization?: string, headers: Record<string, string> = {}) =>
  handler(new Request("http://localhost/api/cron/dispatch", { method: handler === GET ? "GET" : "POST", headers: { ...headers, ...(authorization ? { authorization } : {}) } }), ctx);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one job of the cron call returned (the response lists every job's run, timed). */
const jobResult = <T,>(summary: { jobs: { name: string; result?: unknown }[] }, name: string) => summary.jobs.find((job) => job.name === name)?.result as T;

afterEach(() => {
  delete process.env.CRON_SECRET;
});

describe("/api/cron/dispatch", () => {
  it("is closed (503) while CRON_SECRET is not set", async () => {
    const response = await call(GET, `Bearer ${SECRET}`);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it("answers 401 with WWW-Authenticate for a missing or wrong secret", async () => {
    process.env.CRON_SECRET = SECRET;
    for (const header of [undefined, "Bearer wrong", `Basic ${SECRET}`, `Bearer ${SECRET}x`]) {
      const response = await call(GET, header);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("drains due messages with the right secret (GET for Vercel Cron, POST for others)", async () => {
    process.env.CRON_SECRET = SECRET;
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    const response = await call(GET, `Bearer ${SECRET}`);
    expect(response.status).toBe(200);
    const summary = await response.json();
    expect(jobResult<{ sent: number }>(summary, "messaging.dispatch").sent).toBeGreaterThanOrEqual(1);
    // Every job of the registry ran (or was not due yet in this process), each timed.
    expect(summary.jobs.map((job: { name: string }) => job.name)).toEqual(ENGINE_JOBS.map((job) => job.name));
    for (const job of summary.jobs) expect(job.durationMs).toBeGreaterThanOrEqual(0);
    expect((await getTestMessage(id)).status).toBe("sent");
    expect((await call(POST, `Bearer ${SECRET}`)).status).toBe(200);
    // The route drains every workspace's due messages: on a shared Postgres database that includes other
    // test files' paced bulk sends, up to the route's 45 s deadline per call.
  }, 120_000);

  it("writes the queued messages of a launched bulk campaign's pending snapshot chunks", async () => {
    process.env.CRON_SECRET = SECRET;
    const fixture = await createBulkFixture({ contacts: 5 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2 });
    await db.update(bulkSnapshotChunks).set({ launchedAt: new Date(0) }).where(eq(bulkSnapshotChunks.campaignId, fixture.campaignId));
    const response = await call(POST, `Bearer ${SECRET}`);
    expect(response.status).toBe(200);
    expect(jobResult<number>(await response.json(), "bulk.snapshots")).toBeGreaterThanOrEqual(3);
    expect(await db.select().from(bulkSnapshotChunks).where(eq(bulkSnapshotChunks.campaignId, fixture.campaignId))).toEqual([]);
    const counts = await bulkStatusCounts(fixture.campaignId);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(5);
  }, 120_000);
});

describe("/api/cron/dispatch in serverless mode (the dispatch chain)", () => {
  beforeEach(() => {
    process.env.DISPATCH_CHAIN = "on";
    process.env.CRON_SECRET = SECRET;
    // A hop of a few seconds; it asks for its next hop on port 9, which fetch refuses at once.
    process.env.FUNCTION_TIME_LIMIT_MS = "4000";
    process.env.APP_URL = "http://127.0.0.1:9";
    resetEnvCache();
  });
  afterEach(async () => {
    for (const name of ["DISPATCH_CHAIN", "FUNCTION_TIME_LIMIT_MS", "APP_URL"]) delete process.env[name];
    resetEnvCache();
    await queryRows(await getDb(), sql`delete from engine_leases`);
  });

  it("refuses a chained call without the secret or with a wrong one (401 problem+json) and runs nothing", async () => {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    for (const authorization of [undefined, "Bearer wrong-secret-0123456789"]) {
      const response = await call(POST, authorization, { [CHAIN_TOKEN_HEADER]: "some-token" });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toMatch(/problem\+json/);
    }
    await sleep(300);
    expect(await leaseHeld(await getDb(), CHAIN_LEASE)).toBe(false);
    expect((await getTestMessage(id)).status).toBe("queued");
  });

  it("answers 202 and runs the hop after the response; a second start meanwhile answers 200 without running", async () => {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    const first = await call(POST, `Bearer ${SECRET}`);
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ chained: true });
    const second = await call(POST, `Bearer ${SECRET}`);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ chained: false, reason: "already running" });
    // The hop sends the message, finds nothing else due and ends the chain (the lease released).
    const deadline = Date.now() + 15_000;
    const sent = async () => ["sent", "delivered", "read"].includes((await getTestMessage(id)).status);
    while (Date.now() < deadline && (!(await sent()) || (await leaseHeld(await getDb(), CHAIN_LEASE)))) await sleep(100);
    expect(await sent()).toBe(true);
    expect(await leaseHeld(await getDb(), CHAIN_LEASE)).toBe(false);
  }, 30_000);

  it("GET (the daily cron) runs a full pass, then starts a chain on APP_URL when work is due soon", async () => {
    const calls: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((request, response) => {
      calls.push(request.headers);
      response.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ chained: true, hop: "x" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.APP_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resetEnvCache();
    try {
      const account = await createTestAccount();
      // A retry due in 30 s: not for this pass, but within the chain's horizon.
      await createTestMessage({ workspaceId: account.workspaceId, nextAttemptAt: new Date(Date.now() + 30_000) });
      const response = await call(GET, `Bearer ${SECRET}`);
      expect(response.status).toBe(200);
      expect((await response.json()).chain).toBe("started");
      expect(calls).toHaveLength(1);
      expect(calls[0]!.authorization).toBe(`Bearer ${SECRET}`);
      expect(calls[0]![CHAIN_TOKEN_HEADER]).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});
