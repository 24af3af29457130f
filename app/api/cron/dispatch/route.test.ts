import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { bulkSnapshotChunks } from "@/db/schema";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { bulkStatusCounts, createBulkFixture } from "@/lib/bulk/test-fixtures";
import { ENGINE_JOBS } from "@/lib/engine";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";
import { GET, POST } from "./route";

const ctx = { params: Promise.resolve({}) };
const SECRET = "cron-secret-for-tests-0123456789";
const call = (handler: typeof GET, authorization?: string) =>
  handler(new Request("http://localhost/api/cron/dispatch", { method: handler === GET ? "GET" : "POST", headers: authorization ? { authorization } : {} }), ctx);

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
