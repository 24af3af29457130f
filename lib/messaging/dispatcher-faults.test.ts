// The dispatcher under faults: failed result writes, timeouts after the request was written,
// several processes on one sender, a provider switch mid-retry, shutdown, 130429/131056, and
// dispatching processes that died (killed, or their lock connection dropped) with claims held.
import { spawn } from "node:child_process";
import path from "node:path";
import { eq, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it, vi } from "vitest";
import { getDb, isEmbedded, type DB } from "@/db";
import { queryRows } from "@/db/rows";
import { messages, senders } from "@/db/schema";
import { countingDb } from "@/lib/testing/counting-db";
import { createTestAccount } from "@/lib/testing/factories";
import { createWhatsAppChannel, fakeGraphForFile, whatsappRejection } from "@/lib/channels/whatsapp/testing";
import { connectTestWhatsAppSender, createTestCampaign, getTestMessage, TEST_TEMPLATE_PAYLOAD } from "@/lib/testing/messaging-factories";
import { newId } from "@/lib/crypto/random";
import { updateSenderSettings } from "@/lib/senders/service";
import { claimPriorityMessages } from "./claims";
import { runDispatch, systemClock, type Clock, type DispatchDeps, type DispatchOptions } from "./dispatcher";
import { INTERRUPTED_SEND_REASON, OUTCOME_UNKNOWN_CODE, OUTCOME_UNKNOWN_REASON } from "./errors";
import { CLAIM_OWNER_LOCK_CLASS, claimOwnerFor, claimOwnerIsLive, retireClaimOwner, type ClaimOwner } from "./owner";
import type { Channel } from "@/lib/channels";
import { fakeChannels } from "@/lib/testing/fake-channels";

const fakeGraph = fakeGraphForFile();

/** Messages due this far ahead, dispatched with a clock shifted as far: other files' passes leave them alone. */
const FUTURE = 20 * 60_000;
const shiftedClock = (offsetMs: number): Clock => ({ now: () => Date.now() + offsetMs, sleep: systemClock.sleep });
const dispatch = (workspaceId: string, deps: Partial<DispatchDeps> = {}, options: DispatchOptions = {}) =>
  getDb().then((db) => runDispatch({ db, clock: shiftedClock(FUTURE), ...deps }, { ...options, workspaceIds: [workspaceId] }));

async function currentSenderId(workspaceId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db.select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, workspaceId));
  return row!.id;
}

/** Queued messages pinned to the workspace's current sender. */
async function queue(
  workspaceId: string,
  count: number,
  overrides: Partial<typeof messages.$inferInsert> = {},
): Promise<string[]> {
  const db = await getDb();
  const senderId = overrides.senderId ?? (await currentSenderId(workspaceId));
  const campaignId = overrides.campaignId ?? (await createTestCampaign(workspaceId));
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId("msg"),
    workspaceId,
    campaignId,
    senderId,
    phoneNumber: `+1415555${String(i).padStart(4, "0")}`,
    templateName: "order_update",
    templateLanguage: "en_US",
    renderedText: "Hi Jessica, your order is on its way.",
    payload: TEST_TEMPLATE_PAYLOAD,
    nextAttemptAt: new Date(Date.now() + FUTURE),
    ...overrides,
  }));
  await db.insert(messages).values(rows);
  return rows.map((r) => r.id);
}

/** A new workspace whose sender sends `perSecond`, with `count` messages queued for it. */
async function queuedForSenderAt(perSecond: number, count: number) {
  const account = await createTestAccount();
  const db = await getDb();
  await db.update(senders).set({ throughputPerSecond: perSecond }).where(eq(senders.workspaceId, account.workspaceId));
  return { account, db, ids: await queue(account.workspaceId, count) };
}

function recordingProvider(answer?: (message: { id: string; to: string; attempts: number }) => Promise<void> | void) {
  const sends: { id: string; at: number }[] = [];
  let n = 0;
  const provider: Pick<Channel, "send"> = {
    async send(message) {
      sends.push({ id: message.id, at: Date.now() });
      await answer?.(message);
      return { providerMessageId: `wamid.TEST.${message.id}.${n++}` };
    },
  };
  return { sends, channels: fakeChannels(provider.send) };
}

const dialect = new PgDialect();
const textOf = (query: unknown) => (query && typeof query === "object" && "queryChunks" in query ? dialect.sqlToQuery(query as SQL).sql : "");

/** The test database, with each raw statement (`execute`) passed through `intercept` (its SQL text, and how to run it). */
function interceptedDb(db: DB, intercept: (text: string, run: () => Promise<unknown>) => Promise<unknown>): DB {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "execute") return (query: SQL) => intercept(textOf(query), () => target.execute(query));
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The test database, except that statements matching `fails` throw (each one `times` times at most). */
function faultyDb(db: DB, fails: (text: string) => boolean, times: number): { db: DB; thrown: () => number } {
  let thrown = 0;
  const proxy = interceptedDb(db, (text, run) => {
    if (thrown < times && fails(text)) {
      thrown++;
      return Promise.reject(new Error("connection reset by peer (injected)"));
    }
    return run();
  });
  return { db: proxy, thrown: () => thrown };
}

const isSentWrite = (text: string) => /set status = 'sent'/.test(text);

describe("a failed write of send results", () => {
  it("is retried inside the lease: the batch is recorded and nothing is sent twice", async () => {
    const account = await createTestAccount();
    const ids = await queue(account.workspaceId, 50);
    const { db, thrown } = faultyDb(await getDb(), isSentWrite, 1);
    const { sends, channels } = recordingProvider();
    const summary = await runDispatch({ db, clock: shiftedClock(FUTURE), channels }, { workspaceIds: [account.workspaceId] });
    expect(thrown()).toBe(1);
    expect(summary.sent).toBe(50);
    // Another pass a minute later (the lease would have expired) finds nothing to send.
    await dispatch(account.workspaceId, { channels, clock: shiftedClock(FUTURE + 61_000) });
    expect(sends.filter((s) => ids.includes(s.id))).toHaveLength(50);
    const rows = await Promise.all(ids.map(getTestMessage));
    expect(rows.every((r) => r.status === "sent" && r.providerMessageId?.startsWith("wamid.TEST."))).toBe(true);
  });

  it("keeps a result it cannot write at all and records it later without sending again", async () => {
    const account = await createTestAccount();
    const [id] = await queue(account.workspaceId, 1);
    // Every write of results fails during the first pass (batch tries, then the row on its own).
    const { db } = faultyDb(await getDb(), isSentWrite, 100);
    const { sends, channels } = recordingProvider();
    await runDispatch({ db, clock: shiftedClock(FUTURE), channels }, { workspaceIds: [account.workspaceId] });
    expect((await getTestMessage(id!)).status).toBe("sending");
    // The lease expires; the next pass of this process writes the kept result and sends nothing.
    await dispatch(account.workspaceId, { channels, clock: shiftedClock(FUTURE + 61_000) });
    expect(sends.filter((s) => s.id === id)).toHaveLength(1);
    expect(await getTestMessage(id!)).toMatchObject({ status: "sent", providerMessageId: `wamid.TEST.${id}.0` });
  });
});

describe("a pass cut off from the database mid-send (a restart)", () => {
  it("hands back, before its next claim, a message whose in-flight mark and hand-back both lost their answers: it is sent, not failed as an unknown outcome", async () => {
    const account = await createTestAccount();
    const [id] = await queue(account.workspaceId, 1);
    const base = await getDb();
    let cut = true;
    // The mark is stored but its answer is lost, so the pass never sends; handing the row back fails too.
    const db = new Proxy(base, {
      get(target, property, receiver) {
        if (property === "execute") {
          return async (query: SQL) => {
            const result = await target.execute(query);
            if (cut && /set in_flight_at = /.test(textOf(query))) throw new Error("connection reset by peer (injected)");
            return result;
          };
        }
        if (property === "update") {
          return (table: typeof messages) => ({
            set: (values: Record<string, unknown>) => ({
              where: (condition: SQL) =>
                cut && values.status === "queued" && values.inFlightAt === null
                  ? Promise.reject(new Error("connection reset by peer (injected)"))
                  : target.update(table).set(values).where(condition),
            }),
          });
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as DB;
    const { sends, channels } = recordingProvider();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await runDispatch({ db, clock: shiftedClock(FUTURE), channels }, { workspaceIds: [account.workspaceId] });
    log.mockRestore();
    expect(sends).toHaveLength(0);
    expect(await getTestMessage(id!)).toMatchObject({ status: "sending" });
    expect((await getTestMessage(id!)).inFlightAt).not.toBeNull();
    // The database is back; the lease has run out. The next pass of this process hands it back first, then sends it.
    cut = false;
    await dispatch(account.workspaceId, { channels, clock: shiftedClock(FUTURE + 61_000) });
    expect(sends.map((s) => s.id)).toEqual([id]);
    expect(await getTestMessage(id!)).toMatchObject({ status: "sent", errorCode: null });
  });
});

describe("a request that timed out after it was written", () => {
  it("is not sent again; it fails as outcome unknown after the grace period", async () => {
    const account = await createTestAccount();
    await connectTestWhatsAppSender(account.workspaceId);
    const [id] = await queue(account.workspaceId, 1);
    fakeGraph().requests.length = 0;
    fakeGraph().handle(() => ({ delayMs: 1_500, body: { messaging_product: "whatsapp", messages: [{ id: "wamid.LATE" }] } }));
    const channels = fakeChannels(createWhatsAppChannel({ timeoutMs: 300 }).send);
    const summary = await dispatch(account.workspaceId, { channels });
    expect(summary.unknown).toBe(1);
    const waiting = await getTestMessage(id!);
    expect(waiting).toMatchObject({ status: "sending", errorCode: OUTCOME_UNKNOWN_CODE, attempts: 1 });
    expect(waiting.errorReason).toMatch(/may have been delivered/);

    // Before the grace ends nothing happens; after it, it fails without another request.
    await dispatch(account.workspaceId, { channels, clock: shiftedClock(FUTURE + 60_000) });
    expect((await getTestMessage(id!)).status).toBe("sending");
    await dispatch(account.workspaceId, { channels, clock: shiftedClock(FUTURE + 3 * 60_000) });
    expect(await getTestMessage(id!)).toMatchObject({ status: "failed", errorCode: OUTCOME_UNKNOWN_CODE, errorReason: OUTCOME_UNKNOWN_REASON, attempts: 1 });
    expect(fakeGraph().requests).toHaveLength(1);
  });

  it("while a refused connection (the request never left) is retried", async () => {
    const account = await createTestAccount();
    await connectTestWhatsAppSender(account.workspaceId);
    const [id] = await queue(account.workspaceId, 1);
    const previous = process.env.WHATSAPP_GRAPH_URL;
    process.env.WHATSAPP_GRAPH_URL = "http://127.0.0.1:9"; // nothing listens on the discard port
    try {
      await dispatch(account.workspaceId, { channels: fakeChannels(createWhatsAppChannel({ timeoutMs: 2_000 }).send), random: () => 0 });
    } finally {
      process.env.WHATSAPP_GRAPH_URL = previous;
    }
    expect(await getTestMessage(id!)).toMatchObject({ status: "queued", errorCode: "network_error", attempts: 1, lockedUntil: null });
  });
});

describe("one sender, several dispatching processes", () => {
  it("never exceeds the sender's rate together (no 1-second window above rate + 5 %)", async () => {
    const { account, db, ids } = await queuedForSenderAt(20, 90);
    const { sends, channels } = recordingProvider();
    // On Postgres each process has its own connection; the embedded database has only one.
    const connections: { db: DB; close: () => Promise<void> }[] = [];
    for (let i = 0; i < 3; i++) {
      if (isEmbedded()) {
        connections.push({ db, close: async () => {} });
      } else {
        const postgres = (await import("postgres")).default;
        const { drizzle } = await import("drizzle-orm/postgres-js");
        const client = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
        const own = drizzle(client) as unknown as DB;
        // Its claim owner's lock connection is reserved out of the pool: given back first, or the pool never ends.
        connections.push({ db: own, close: () => claimOwnerFor(own).release().then(() => client.end()) });
      }
    }
    try {
      await Promise.all(
        connections.map((c) => runDispatch({ db: c.db, clock: shiftedClock(FUTURE), channels }, { workspaceIds: [account.workspaceId], batchSize: 10, deadlineMs: 15_000 })),
      );
    } finally {
      await Promise.all(connections.map((c) => c.close()));
    }
    const mine = sends.filter((s) => ids.includes(s.id)).sort((a, b) => a.at - b.at);
    expect(mine).toHaveLength(90);
    expect(new Set(mine.map((s) => s.id)).size).toBe(90);
    const peak = Math.max(...mine.map((s) => mine.filter((t) => t.at >= s.at && t.at < s.at + 1_000).length));
    // rate + 5 % is 21 (lib/messaging/README.md); one more is left for a process stalled between its
    // lateness check and the call on a busy machine. Without the shared rate the three processes send
    // all 90 within a second.
    expect(peak).toBeLessThanOrEqual(22);
  });

  it("slows the whole sender down after 130429, not just the one message", async () => {
    const account = await createTestAccount();
    const db = await getDb();
    await db.update(senders).set({ throughputPerSecond: 50 }).where(eq(senders.workspaceId, account.workspaceId));
    const [first, ...rest] = await queue(account.workspaceId, 6);
    const { sends, channels } = recordingProvider((message) => {
      if (message.id === first) throw whatsappRejection(130429, "Rate limit hit");
    });
    await dispatch(account.workspaceId, { channels }, { batchSize: 1 });
    const firstAt = sends.find((s) => s.id === first)!.at;
    // A request that left before the 130429 answer was read (on a busy machine, up to a slot or two
    // after the first; lib/messaging/README.md "Known limit") is under way; whatever leaves later
    // waits for the sender's 1 s pause.
    const later = sends.filter((s) => rest.includes(s.id) && s.at > firstAt + 100);
    expect(later.length).toBeGreaterThan(0);
    for (const send of later) expect(send.at - firstAt).toBeGreaterThanOrEqual(950);
  });
});

describe("an in-flight mark that comes back late", () => {
  it("sends its request at a fresh slot of the sender, not together with the others marked in the same batch", async () => {
    const { account, db, ids } = await queuedForSenderAt(20, 8);
    // Every mark statement takes 300 ms: the requests of its batch would all leave the moment it returns.
    const slowMarks = interceptedDb(db, async (text, run) => {
      if (/set in_flight_at/.test(text)) await new Promise((resolve) => setTimeout(resolve, 300));
      return run();
    });
    const { sends, channels } = recordingProvider();
    await dispatch(account.workspaceId, { db: slowMarks, channels });
    const mine = sends.filter((s) => ids.includes(s.id)).sort((a, b) => a.at - b.at);
    expect(mine).toHaveLength(8);
    // Slots at 20/s are 52 ms apart; a request may leave up to 60 ms after its own (MAX_DEPARTURE_LATENESS_MS).
    // Sent together, the eight would leave within a few milliseconds of each other. The median gap, not the
    // smallest: on a loaded machine one request can be held up by a stalled event loop until just before the next.
    const gaps = mine.slice(1).map((send, i) => send.at - mine[i]!.at).sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(30);
    expect(mine.at(-1)!.at - mine[0]!.at).toBeGreaterThanOrEqual(5 * 52);
  });
});

describe("a provider switch", () => {
  it("fails the messages of the old sender (queued for a retry or reclaimed) and never sends them through the new one", async () => {
    const account = await createTestAccount();
    await connectTestWhatsAppSender(account.workspaceId);
    const oldSender = await currentSenderId(account.workspaceId);
    // One waits for a retry after a timeout; one was being sent when its process died.
    const [retrying] = await queue(account.workspaceId, 1, { attempts: 1, errorCode: "timeout", errorReason: "The WhatsApp Cloud API did not answer in time." });
    const [stranded] = await queue(account.workspaceId, 1, { status: "sending", attempts: 1, lockedUntil: new Date(Date.now() + FUTURE - 1_000) });
    const db = await getDb();
    await updateSenderSettings(db, account.workspaceId, { provider: "sandbox" });
    const newSender = await currentSenderId(account.workspaceId);
    expect(newSender).not.toBe(oldSender);
    const retryRow = await getTestMessage(retrying!);
    expect(retryRow).toMatchObject({ status: "failed", errorCode: "sender_changed", senderId: oldSender });
    expect(retryRow.errorReason).toMatch(/from WhatsApp number \d+ to the sandbox.*Resend it from the logs/);

    const [fresh] = await queue(account.workspaceId, 1);
    const { sends, channels } = recordingProvider();
    await dispatch(account.workspaceId, { channels });
    expect(sends.map((s) => s.id)).toEqual([fresh]);
    expect(await getTestMessage(stranded!)).toMatchObject({ status: "failed", errorCode: "sender_changed", providerMessageId: null });
    expect(await getTestMessage(fresh!)).toMatchObject({ status: "sent", senderId: newSender });
  });
});

describe("shutdown", () => {
  it("stops claiming at once, hands back held messages without counting the attempt, and returns within 5 s", async () => {
    const account = await createTestAccount();
    const db = await getDb();
    await db.update(senders).set({ throughputPerSecond: 2 }).where(eq(senders.workspaceId, account.workspaceId));
    const ids = await queue(account.workspaceId, 20);
    const { sends, channels } = recordingProvider(() => new Promise((resolve) => setTimeout(resolve, 300)));
    const controller = new AbortController();
    const pass = dispatch(account.workspaceId, { channels }, { signal: controller.signal, deadlineMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const abortedAt = Date.now();
    controller.abort();
    const summary = await pass;
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    const sent = sends.filter((s) => ids.includes(s.id)).map((s) => s.id);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(20);
    const rows = await Promise.all(ids.map(getTestMessage));
    for (const row of rows) {
      if (sent.includes(row.id)) expect(row.status).toBe("sent");
      else expect(row).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null });
    }
    expect(summary.deferred).toBe(20 - sent.length);
  });
});

describe("pair rate limit (131056)", () => {
  it("backs off the recipient for at least 6 s", async () => {
    const account = await createTestAccount();
    const [id] = await queue(account.workspaceId, 1);
    const { channels } = recordingProvider(() => {
      throw whatsappRejection(131056, "Pair rate limit hit");
    });
    const before = Date.now() + FUTURE;
    await dispatch(account.workspaceId, { channels, random: () => 0 });
    const row = await getTestMessage(id!);
    expect(row).toMatchObject({ status: "queued", errorCode: "131056" });
    expect(row.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(6_000);
  });
});

/** Whether `owner`'s claim lock is held by any session of the test database. */
async function ownerIsLive(owner: number): Promise<boolean> {
  const [row] = await queryRows<{ live: boolean }>(await getDb(), sql`select ${claimOwnerIsLive(owner)} as live`);
  return row!.live === true;
}

/** Holds `owner`'s claim lock in a session of its own (on the embedded database: its one session) until released. */
async function holdOwnerLock(owner: number): Promise<() => Promise<void>> {
  const db = await getDb();
  if (isEmbedded()) {
    await db.execute(sql`select pg_advisory_lock(${CLAIM_OWNER_LOCK_CLASS}, ${owner}::int)`);
    return async () => void (await db.execute(sql`select pg_advisory_unlock(${CLAIM_OWNER_LOCK_CLASS}, ${owner}::int)`));
  }
  const postgres = (await import("postgres")).default;
  const client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await client`select pg_advisory_lock(${CLAIM_OWNER_LOCK_CLASS}, ${owner}::int)`;
  return () => client.end();
}

describe("claims of a dispatching process that is gone", () => {
  /** A claim of another process: still `sending` under a lease that has not run out. */
  const heldBy = (owner: number, inFlight: boolean) => ({
    status: "sending" as const,
    attempts: 1,
    lockedUntil: new Date(Date.now() + FUTURE + 50_000),
    claimOwner: owner,
    inFlightAt: inFlight ? new Date(Date.now() + FUTURE - 1_000) : null,
  });

  it("are taken over at once: an in-flight one is settled as outcome unknown, never sent again; a merely claimed one is sent once", async () => {
    const account = await createTestAccount();
    const gone = 1_234_567; // no session holds its lock: the process (or an earlier run of this one) is gone
    expect(await ownerIsLive(gone)).toBe(false);
    const [inFlight] = await queue(account.workspaceId, 1, heldBy(gone, true));
    const [claimed] = await queue(account.workspaceId, 1, { ...heldBy(gone, false), phoneNumber: "+14155559001" });
    const { sends, channels } = recordingProvider();
    // The leases have 50 s left: only the owner's free lock lets this pass take them.
    await dispatch(account.workspaceId, { channels });
    await dispatch(account.workspaceId, { channels });
    expect(sends.map((s) => s.id)).toEqual([claimed]);
    expect(await getTestMessage(inFlight!)).toMatchObject({ status: "failed", errorCode: OUTCOME_UNKNOWN_CODE, errorReason: INTERRUPTED_SEND_REASON, attempts: 1, providerMessageId: null });
    expect(await getTestMessage(claimed!)).toMatchObject({ status: "sent", attempts: 1, providerMessageId: `wamid.TEST.${claimed}.0` });
  });

  it("are not taken over by the process that lost their lock while alive (a database restart): its passes settle them, the lease frees them here", async () => {
    const account = await createTestAccount();
    const lostHere = 1_234_569; // its lock is free, but this process held it: a pass may still be settling these claims
    expect(await ownerIsLive(lostHere)).toBe(false);
    retireClaimOwner(lostHere);
    const [inFlight] = await queue(account.workspaceId, 1, heldBy(lostHere, true));
    const [claimed] = await queue(account.workspaceId, 1, { ...heldBy(lostHere, false), phoneNumber: "+14155559003" });
    const { sends, channels } = recordingProvider();
    await dispatch(account.workspaceId, { channels });
    expect(sends).toHaveLength(0);
    for (const id of [inFlight!, claimed!]) expect(await getTestMessage(id)).toMatchObject({ status: "sending", attempts: 1, claimOwner: lostHere });
  });

  it("are never taken over by a claim made under their own owner id, even once its lock went unnoticed", async () => {
    const account = await createTestAccount();
    const unnoticed = 1_234_570; // the id a pass still claims under while its lock's connection is already gone
    expect(await ownerIsLive(unnoticed)).toBe(false);
    const [inFlight] = await queue(account.workspaceId, 1, heldBy(unnoticed, true));
    const db = await getDb();
    const now = new Date(Date.now() + FUTURE);
    const claim = (owner: number) => claimPriorityMessages(db, { now, lease: new Date(now.getTime() + 60_000), count: 10, owner, onlyWorkspaceIds: [account.workspaceId] });
    expect(await claim(unnoticed)).toEqual([]);
    // Any other id takes it over (its owner is gone).
    expect((await claim(unnoticed + 1)).map((m) => m.id)).toEqual([inFlight]);
  });

  it("are left alone while their owner holds its lock, and taken over once it lets go", async () => {
    const account = await createTestAccount();
    const live = 1_234_568;
    const release = await holdOwnerLock(live);
    let released = false;
    try {
      const [inFlight] = await queue(account.workspaceId, 1, heldBy(live, true));
      const [claimed] = await queue(account.workspaceId, 1, { ...heldBy(live, false), phoneNumber: "+14155559002" });
      const { sends, channels } = recordingProvider();
      await dispatch(account.workspaceId, { channels });
      expect(sends).toHaveLength(0);
      for (const id of [inFlight!, claimed!]) expect(await getTestMessage(id)).toMatchObject({ status: "sending", attempts: 1, claimOwner: live });

      await release();
      released = true;
      await expect.poll(() => ownerIsLive(live), { timeout: 10_000 }).toBe(false);
      await dispatch(account.workspaceId, { channels });
      expect(sends.map((s) => s.id)).toEqual([claimed]);
      expect(await getTestMessage(inFlight!)).toMatchObject({ status: "failed", errorCode: OUTCOME_UNKNOWN_CODE });
      expect(await getTestMessage(claimed!)).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      if (!released) await release();
    }
  });

  it("marks sends in flight in batches, one statement for many sends", async () => {
    const account = await createTestAccount();
    const db = await getDb();
    await db.update(senders).set({ throughputPerSecond: 10_000 }).where(eq(senders.workspaceId, account.workspaceId));
    const ids = await queue(account.workspaceId, 200);
    const { db: counting, statements } = await countingDb();
    const { sends, channels } = recordingProvider();
    await runDispatch({ db: counting, clock: shiftedClock(FUTURE), channels }, { workspaceIds: [account.workspaceId] });
    expect(sends.filter((s) => ids.includes(s.id))).toHaveLength(200);
    const marks = statements.filter((statement) => /set in_flight_at = /.test(statement));
    expect(marks.length).toBeGreaterThan(0);
    // Marks asked for while one statement is being written go out together in the next one.
    expect(marks.length).toBeLessThan(100);
  });

  it("a pass whose own lock is gone sends nothing more and hands back what it claimed", async () => {
    const account = await createTestAccount();
    const ids = await queue(account.workspaceId, 3);
    const lost: number[] = [];
    // An owner whose lock is not held (its connection dropped): every in-flight mark finds it free.
    const owner: ClaimOwner = { ensure: async () => 1_234_569, lost: (id) => void lost.push(id), confirmed: () => {}, release: async () => {} };
    const { sends, channels } = recordingProvider();
    await dispatch(account.workspaceId, { channels, owner });
    expect(sends).toHaveLength(0);
    expect(lost).toEqual([1_234_569]);
    for (const id of ids) expect(await getTestMessage(id)).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null, inFlightAt: null });
  });

  it.skipIf(isEmbedded())("after its lock connection dropped, the process takes a new lock and sends under it", async () => {
    const account = await createTestAccount();
    const { sends, channels } = recordingProvider();
    const [first] = await queue(account.workspaceId, 1);
    await dispatch(account.workspaceId, { channels });
    const before = (await getTestMessage(first!)).claimOwner!;
    expect(await ownerIsLive(before)).toBe(true);
    // The connection holding the lock is cut (a network drop, a restarted pooler): the lock goes with it.
    const db = await getDb();
    await db.execute(sql`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and classid = ${CLAIM_OWNER_LOCK_CLASS} and objid = ${before}::int`);
    await expect.poll(() => ownerIsLive(before), { timeout: 10_000 }).toBe(false);
    const [second] = await queue(account.workspaceId, 1, { phoneNumber: "+14155559003" });
    // A pass within a second of the last check finds the lock gone at its first mark and stops; the next one takes a new lock.
    for (let pass = 0; pass < 3 && (await getTestMessage(second!)).status !== "sent"; pass++) await dispatch(account.workspaceId, { channels });
    const row = await getTestMessage(second!);
    expect(row).toMatchObject({ status: "sent" });
    expect(row.claimOwner).not.toBe(before);
    expect(await ownerIsLive(row.claimOwner!)).toBe(true);
    expect(sends.filter((s) => s.id === second)).toHaveLength(1);
  });

  it.skipIf(isEmbedded())(
    "killed (SIGKILL) mid-send: its open request is settled as outcome unknown and its claimed messages are sent once, without waiting for the lease",
    async () => {
      const account = await createTestAccount();
      const db = await getDb();
      // One send a second: the first request hangs open while the others wait, claimed, for their slots.
      await db.update(senders).set({ throughputPerSecond: 1 }).where(eq(senders.workspaceId, account.workspaceId));
      const ids = await queue(account.workspaceId, 4, { nextAttemptAt: new Date() });
      const root = path.resolve(import.meta.dirname, "../..");
      // Node with the tsx loader, not the tsx CLI: the CLI runs the script in a child of its own, which a SIGKILL would not reach.
      const child = spawn(process.execPath, ["--import", "tsx", "lib/testing/dispatch-until-killed.ts", account.workspaceId], {
        cwd: root,
        env: { ...process.env, VITEST: undefined },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      try {
        await expect.poll(() => output, { timeout: 60_000, interval: 20 }).toMatch(/sending msg_/);
      } finally {
        child.kill("SIGKILL");
      }
      await exited;
      const killedAt = Date.now();
      const opened = [...output.matchAll(/sending (msg_\w+)/g)].map((match) => match[1]!);

      const left = await Promise.all(ids.map(getTestMessage));
      const owner = left[0]!.claimOwner!;
      expect(left.every((row) => row.status === "sending" && row.claimOwner === owner), JSON.stringify(left)).toBe(true);
      // Every request that left was marked in flight first; the others were only claimed.
      const inFlight = left.filter((row) => row.inFlightAt !== null).map((row) => row.id);
      const claimedOnly = left.filter((row) => row.inFlightAt === null).map((row) => row.id);
      for (const id of opened) expect(inFlight).toContain(id);
      expect(opened.length).toBeGreaterThan(0);
      expect(claimedOnly.length).toBeGreaterThan(0);

      await expect.poll(() => ownerIsLive(owner), { timeout: 10_000 }).toBe(false);
      // The real clock: the killed process's leases still have most of their 60 s to run.
      const { sends, channels } = recordingProvider();
      for (let pass = 0; pass < 3 && sends.length < claimedOnly.length; pass++) {
        await runDispatch({ db, clock: systemClock, channels }, { workspaceIds: [account.workspaceId], deadlineMs: 15_000 });
      }
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      expect(sends.map((s) => s.id).sort()).toEqual([...claimedOnly].sort());
      for (const id of inFlight) expect(await getTestMessage(id)).toMatchObject({ status: "failed", errorCode: OUTCOME_UNKNOWN_CODE, errorReason: INTERRUPTED_SEND_REASON });
      for (const id of claimedOnly) expect(await getTestMessage(id)).toMatchObject({ status: "sent", attempts: 1 });
    },
    120_000,
  );
});
