import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { queryRows } from "@/db/rows";
import type { Channel } from "@/lib/channels";
import { newId } from "@/lib/crypto/random";
import { dispatchJob, messagesDueWithin } from "@/lib/messaging/jobs";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { createTestAccount } from "@/lib/testing/factories";
import { fakeChannels } from "@/lib/testing/fake-channels";
import { createTestMessage, createTestMessages, setSenderThroughput } from "@/lib/testing/messaging-factories";
import { acceptChainCall, CHAIN_LEASE, CHAIN_TOKEN_HEADER, httpHopRequester, runChainHop, startChainIfDue, type RequestHop } from "./chain";
import { installEngine } from "@/lib/engine/jobs";
import { leaseHeld, releaseLease, takeLease } from "./lease";
import { installJobs } from "./runner";
import { jobsSettled, runJobsSoon } from "./soon";
import { defineJob } from "./types";

const SECRET = "chain-secret-for-tests-0123456789";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Hop timings shortened for tests: a 3 s limit, claims stop 1 s before it, the next hop asked 0.3 s before that. */
const FAST = { limitMs: 3_000, stopClaimingBeforeLimitMs: 1_000, handoverLeadMs: 300, pollMs: 50, checkMs: 100 };

interface ReceivedCall {
  headers: http.IncomingHttpHeaders;
  path: string;
}

/** A real HTTP server standing in for the app's cron route: records each chained call, answers 202. */
let receiver: { origin: string; calls: ReceivedCall[]; close(): Promise<void> };

beforeAll(async () => {
  const calls: ReceivedCall[] = [];
  const server = http.createServer((request, response) => {
    calls.push({ headers: request.headers, path: request.url ?? "" });
    response.writeHead(202, { "content-type": "application/json" });
    response.end(JSON.stringify({ chained: true, hop: "next" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
});

afterAll(async () => {
  await receiver.close();
});

afterEach(async () => {
  receiver.calls.length = 0;
  delete process.env.CRON_SECRET;
  delete process.env.DISPATCH_CHAIN;
  vi.restoreAllMocks();
  await queryRows(await getDb(), sql`delete from engine_leases`);
});

const holder = async () => (await queryRows<{ holder: string }>(await getDb(), sql`select holder from engine_leases where name = ${CHAIN_LEASE} and expires_at > now()`))[0]?.holder ?? null;
const noHop: RequestHop = async () => ({ accepted: false, reason: "not asked in this test" });

describe("the chain's lease", () => {
  it("lets exactly one of several racing chain starts run", async () => {
    const scheduled: string[] = [];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => acceptChainCall({ previous: null, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, schedule: () => scheduled.push("hop") })),
    );
    expect(answers.filter((answer) => answer.chained)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.chained)).toEqual(Array(5).fill({ chained: false, reason: "already running" }));
    expect(scheduled).toEqual(["hop"]);
  });

  it("is handed over only with the holder's token, and an expired one is taken by the next start", async () => {
    const first = await acceptChainCall({ previous: null, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, schedule: () => {} });
    if (!first.chained) throw new Error("the first start must run");
    expect(await acceptChainCall({ previous: "not-the-holder", startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, schedule: () => {} })).toEqual({ chained: false, reason: "already running" });
    const next = await acceptChainCall({ previous: first.hop, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, schedule: () => {} });
    expect(next.chained).toBe(true);
    expect(await holder()).toBe(next.chained && next.hop);
    // The holder died: its lease runs out and the next start (a drain, the daily cron) takes it.
    await queryRows(await getDb(), sql`update engine_leases set expires_at = now() - interval '1 second'`);
    expect(await leaseHeld(await getDb(), CHAIN_LEASE)).toBe(false);
    const resumed = await acceptChainCall({ previous: null, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, schedule: () => {} });
    expect(resumed.chained).toBe(true);
  });
});

describe("a hop of the chain", () => {
  it("asks for the next hop over HTTP, with the secret and its token, before its time limit while work is due", async () => {
    process.env.CRON_SECRET = SECRET;
    const db = await getDb();
    const token = newId("hop");
    expect(await takeLease(db, { name: CHAIN_LEASE, holder: token, ttlMs: 60_000 })).toBe(true);
    let runs = 0;
    const alwaysBusy = defineJob({ name: "test.busy", every: 0, run: async () => (await sleep(20), ++runs), busy: () => true });
    const startedAt = Date.now();
    const summary = await runChainHop({ ...FAST, token, startedAt, requestHop: httpHopRequester(receiver.origin), jobs: [alwaysBusy], db });
    expect(summary).toMatchObject({ ending: "handed over", handedOver: true });
    expect(summary.durationMs).toBeLessThan(FAST.limitMs);
    expect(runs).toBeGreaterThan(10);
    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]).toMatchObject({ path: "/api/cron/dispatch" });
    expect(receiver.calls[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(receiver.calls[0]!.headers[CHAIN_TOKEN_HEADER]).toBe(token);
    // Asked at the handover point: limit − 1 s − 0.3 s after the request started.
    // The lease stays for the next hop to take with the token.
    expect(await holder()).toBe(token);
  });

  it("ends the chain when nothing is due: no next hop, the lease released, long before the limit", async () => {
    const db = await getDb();
    const token = newId("hop");
    await takeLease(db, { name: CHAIN_LEASE, holder: token, ttlMs: 60_000 });
    const requestHop = vi.fn<RequestHop>(async () => ({ accepted: true }));
    const idle = defineJob({ name: "test.idle", every: 0, run: async () => 0, busy: () => false, dueWithin: async () => false });
    const summary = await runChainHop({ ...FAST, token, startedAt: Date.now(), requestHop, jobs: [idle], db });
    expect(summary).toMatchObject({ ending: "nothing due", handedOver: false });
    expect(summary.durationMs).toBeLessThan(1_000);
    expect(requestHop).not.toHaveBeenCalled();
    expect(await leaseHeld(db, CHAIN_LEASE)).toBe(false);
  });

  it("keeps going for work due soon (a retry) and hands over then", async () => {
    const db = await getDb();
    const token = newId("hop");
    await takeLease(db, { name: CHAIN_LEASE, holder: token, ttlMs: 60_000 });
    const requestHop = vi.fn<RequestHop>(async () => ({ accepted: true }));
    const waiting = defineJob({ name: "test.retry-soon", every: 0, run: async () => 0, busy: () => false, dueWithin: async () => true });
    const summary = await runChainHop({ ...FAST, token, startedAt: Date.now(), requestHop, jobs: [waiting], db });
    expect(summary.ending).toBe("handed over");
    expect(requestHop).toHaveBeenCalledWith(token);
  });

  it("sends nothing twice when a hop is aborted mid-pass and the chain resumes after its lease expired", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    await setSenderThroughput(account.workspaceId, 20);
    const ids = await createTestMessages(account.workspaceId, 40);
    const sends = new Map<string, number>();
    // The hop is killed mid-pass: once its fifth send has gone out, whatever the machine's speed.
    const killed = new AbortController();
    const send: Channel["send"] = async (message) => {
      sends.set(message.id, (sends.get(message.id) ?? 0) + 1);
      if (sends.size === 5) killed.abort();
      await sleep(15);
      return { providerMessageId: `wamid.${message.id}` };
    };
    const job = defineJob({
      ...dispatchJob({}),
      run: (executor, { deadline, signal }) => runDispatch({ db: executor, channels: fakeChannels(send) }, { deadlineMs: Math.max(0, deadline - Date.now()), signal, workspaceIds: [account.workspaceId] }),
      dueWithin: messagesDueWithin,
    });
    const first = await acceptChainCall({ previous: null, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, db, schedule: () => {} });
    if (!first.chained) throw new Error("the first start must run");
    const aborted = await runChainHop({ ...FAST, limitMs: 60_000, token: first.hop, startedAt: Date.now(), requestHop: noHop, jobs: [job], db, signal: killed.signal });
    expect(aborted.ending).toBe("aborted");
    const sentBefore = sends.size;
    expect(sentBefore).toBeGreaterThan(0);
    expect(sentBefore).toBeLessThan(ids.length);
    // The aborted hop's lease is released (it did not hand over); had it died, the lease would expire.
    await queryRows(db, sql`insert into engine_leases (name, holder, expires_at) values (${CHAIN_LEASE}, 'dead-hop', now() - interval '1 second') on conflict (name) do update set holder = 'dead-hop', expires_at = excluded.expires_at`);
    const resumed = await acceptChainCall({ previous: null, startedAt: Date.now(), limitMs: 60_000, requestHop: noHop, db, schedule: () => {} });
    if (!resumed.chained) throw new Error("the resumed start must run");
    const finished = await runChainHop({ ...FAST, limitMs: 60_000, token: resumed.hop, startedAt: Date.now(), requestHop: noHop, jobs: [job], db });
    expect(finished.ending).toBe("nothing due");
    expect(sends.size).toBe(ids.length);
    expect([...sends.values()].every((count) => count === 1)).toBe(true);
    const statuses = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from messages where workspace_id = ${account.workspaceId} group by status`);
    expect(statuses).toEqual([{ status: "sent", n: ids.length }]);
  }, 30_000);
});

describe("starting a chain after a drain or a cron call", () => {
  it("starts one in serverless mode when work is due and none runs; else leaves it", async () => {
    const db = await getDb();
    const requestHop = vi.fn<RequestHop>(async () => ({ accepted: true, status: 202 }));
    const account = await createTestAccount();
    expect(await startChainIfDue({ requestHop, db })).toBe("not serverless");
    process.env.DISPATCH_CHAIN = "on";
    await queryRows(db, sql`delete from messages`);
    expect(await startChainIfDue({ requestHop, db })).toBe("nothing due");
    // A retry due in 5 minutes is past the horizon; one due in 30 s is not.
    await createTestMessage({ workspaceId: account.workspaceId, nextAttemptAt: new Date(Date.now() + 300_000) });
    expect(await startChainIfDue({ requestHop, db })).toBe("nothing due");
    await createTestMessage({ workspaceId: account.workspaceId, nextAttemptAt: new Date(Date.now() + 30_000) });
    expect(await startChainIfDue({ requestHop, db })).toBe("started");
    expect(requestHop).toHaveBeenCalledExactlyOnceWith(null);
    await takeLease(db, { name: CHAIN_LEASE, holder: "live-hop", ttlMs: 60_000 });
    expect(await startChainIfDue({ requestHop, db })).toBe("already running");
    expect(requestHop).toHaveBeenCalledTimes(1);
  });
});

describe("a drain after a response in serverless mode", () => {
  it("leaves the work to a running chain, and does it itself when none runs", async () => {
    process.env.DISPATCH_CHAIN = "on";
    const db = await getDb();
    let runs = 0;
    installJobs([defineJob({ name: "test.after-response", every: 0, afterResponseMs: 1_000, run: async () => ++runs })]);
    try {
      await takeLease(db, { name: CHAIN_LEASE, holder: "live-hop", ttlMs: 60_000 });
      runJobsSoon();
      await sleep(50);
      await jobsSettled();
      expect(runs).toBe(0);
      await releaseLease(db, CHAIN_LEASE, "live-hop");
      runJobsSoon();
      await sleep(50);
      await jobsSettled();
      expect(runs).toBe(1);
    } finally {
      installEngine();
    }
  });
});
