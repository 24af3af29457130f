import { and, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { messages, messageStatusInbox } from "@/db/schema";
import { randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";
import { applyInboxedStatuses, pruneStatusInbox } from "./status-inbox";
import { recordStatusReports, type AddressedStatusReport, type ReportedStatus } from "./statuses";

const newProviderMessageId = () => `wamid.INBOX${randomBase62(16)}`;
// One clock reading per file, so times computed at different moments of a test agree.
const BASE_SECONDS = Math.floor(Date.now() / 1000);
const secondsAgo = (s: number) => new Date((BASE_SECONDS - s) * 1000);

function report(providerMessageId: string, workspaceId: string, status: ReportedStatus, at: Date, error?: { code: string; reason: string }): AddressedStatusReport {
  return { providerMessageId, workspaceId, report: { status, at, ...(error ? { errorCode: error.code, errorReason: error.reason } : {}) } };
}

async function held(providerMessageIds: string[]) {
  const db = await getDb();
  return db.select().from(messageStatusInbox).where(inArray(messageStatusInbox.providerMessageId, providerMessageIds));
}

/** What the dispatcher does when a send's result is recorded. */
async function storeProviderMessageId(id: string, providerMessageId: string, sentAt: Date) {
  const db = await getDb();
  await db.update(messages).set({ status: "sent", providerMessageId, sentAt }).where(eq(messages.id, id));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("recordStatusReports", () => {
  it("applies out-of-order and duplicate statuses of one batch as if they came in order", async () => {
    const { workspaceId } = await createTestAccount();
    const providerMessageId = newProviderMessageId();
    const sentAt = secondsAgo(100);
    const id = await createTestMessage({ workspaceId, status: "sent", providerMessageId, sentAt });
    const outcome = await recordStatusReports(await getDb(), [
      report(providerMessageId, workspaceId, "read", secondsAgo(10)),
      report(providerMessageId, workspaceId, "delivered", secondsAgo(50)),
      report(providerMessageId, workspaceId, "delivered", secondsAgo(40)),
      report(providerMessageId, workspaceId, "sent", secondsAgo(90)),
      report(providerMessageId, workspaceId, "failed", secondsAgo(30), { code: "131000", reason: "Something went wrong" }),
    ]);
    // delivered, failed and read raise the rank of a sent message; the duplicate and the late sent do not.
    expect(outcome).toEqual({ applied: 3, ignored: 2, pending: 0 });
    expect(await getTestMessage(id)).toMatchObject({
      status: "read",
      sentAt,
      deliveredAt: secondsAgo(50),
      readAt: secondsAgo(10),
      failedAt: null,
      errorCode: null,
      errorReason: null,
    });
  });

  it("keeps failed with its error when nothing proves delivery, and never moves a message backwards", async () => {
    const { workspaceId } = await createTestAccount();
    const failing = newProviderMessageId();
    const failingId = await createTestMessage({ workspaceId, status: "sending", providerMessageId: failing, lockedUntil: new Date(Date.now() + 60_000) });
    const reading = newProviderMessageId();
    const readId = await createTestMessage({ workspaceId, status: "sent", providerMessageId: reading, sentAt: secondsAgo(100) });
    const db = await getDb();
    await recordStatusReports(db, [report(reading, workspaceId, "read", secondsAgo(20))]);
    const outcome = await recordStatusReports(db, [
      report(failing, workspaceId, "failed", secondsAgo(20), { code: "131026", reason: "Message undeliverable" }),
      report(failing, workspaceId, "sent", secondsAgo(30)),
      report(failing, workspaceId, "failed", secondsAgo(5), { code: "131049", reason: "Later failure" }),
      report(reading, workspaceId, "delivered", secondsAgo(60)),
      report(reading, workspaceId, "failed", secondsAgo(10), { code: "131000", reason: "x" }),
    ]);
    expect(outcome).toEqual({ applied: 2, ignored: 3, pending: 0 });
    expect(await getTestMessage(failingId)).toMatchObject({
      status: "failed",
      sentAt: secondsAgo(30),
      failedAt: secondsAgo(20),
      errorCode: "131026",
      errorReason: "Message undeliverable",
      lockedUntil: null,
    });
    expect(await getTestMessage(readId)).toMatchObject({ status: "read", readAt: secondsAgo(20), deliveredAt: secondsAgo(20), failedAt: null, errorCode: null });
  });

  it("applies a mixed batch of known and unknown provider message ids and holds the unknown ones", async () => {
    const { workspaceId } = await createTestAccount();
    const known = [newProviderMessageId(), newProviderMessageId()];
    const unknown = [newProviderMessageId(), newProviderMessageId()];
    const ids = await Promise.all(known.map((providerMessageId) => createTestMessage({ workspaceId, status: "sent", providerMessageId, sentAt: secondsAgo(60) })));
    const outcome = await recordStatusReports(await getDb(), [
      report(known[0]!, workspaceId, "delivered", secondsAgo(30)),
      report(unknown[0]!, workspaceId, "sent", secondsAgo(40)),
      report(unknown[0]!, workspaceId, "delivered", secondsAgo(30)),
      report(known[1]!, workspaceId, "read", secondsAgo(20)),
      report(unknown[1]!, workspaceId, "failed", secondsAgo(25), { code: "131026", reason: "Message undeliverable" }),
    ]);
    expect(outcome).toEqual({ applied: 2, ignored: 0, pending: 3 });
    expect((await getTestMessage(ids[0]!)).status).toBe("delivered");
    expect((await getTestMessage(ids[1]!)).status).toBe("read");
    const rows = await held([...known, ...unknown]);
    expect(rows.map((row) => `${row.providerMessageId} ${row.status}`).sort()).toEqual(
      [`${unknown[0]} sent`, `${unknown[0]} delivered`, `${unknown[1]} failed`].sort(),
    );
    expect(rows.find((row) => row.status === "failed")).toMatchObject({ errorCode: "131026", errorReason: "Message undeliverable", workspaceId });
  });

  it("does not apply a status to another workspace's message with that provider message id; it is held for its own workspace", async () => {
    const owner = await createTestAccount();
    const other = await createTestAccount();
    const providerMessageId = newProviderMessageId();
    const id = await createTestMessage({ workspaceId: owner.workspaceId, status: "sent", providerMessageId, sentAt: secondsAgo(60) });
    const outcome = await recordStatusReports(await getDb(), [report(providerMessageId, other.workspaceId, "read", secondsAgo(5))]);
    expect(outcome).toEqual({ applied: 0, ignored: 0, pending: 1 });
    expect((await getTestMessage(id)).status).toBe("sent");
    expect(await applyInboxedStatuses(await getDb(), { providerMessageIds: [providerMessageId] })).toBe(0);
    expect((await getTestMessage(id)).status).toBe("sent");
    expect(await held([providerMessageId])).toHaveLength(1);
  });
});

describe("applyInboxedStatuses", () => {
  it("applies statuses that arrived before the provider message id was stored, once it is, and deletes them", async () => {
    const { workspaceId } = await createTestAccount();
    const providerMessageId = newProviderMessageId();
    const id = await createTestMessage({ workspaceId, status: "sending", lockedUntil: new Date(Date.now() + 60_000) });
    const db = await getDb();
    const early = await recordStatusReports(db, [report(providerMessageId, workspaceId, "delivered", secondsAgo(5)), report(providerMessageId, workspaceId, "sent", secondsAgo(8))]);
    expect(early).toEqual({ applied: 0, ignored: 0, pending: 2 });
    expect(await held([providerMessageId])).toHaveLength(2);
    // Nothing to apply while the message has no provider message id.
    expect(await applyInboxedStatuses(db, { providerMessageIds: [providerMessageId] })).toBe(0);

    await storeProviderMessageId(id, providerMessageId, secondsAgo(7));
    expect(await applyInboxedStatuses(db, { providerMessageIds: [providerMessageId] })).toBe(1);
    expect(await getTestMessage(id)).toMatchObject({ status: "delivered", sentAt: secondsAgo(7), deliveredAt: secondsAgo(5) });
    expect(await held([providerMessageId])).toHaveLength(0);
    // A second call (another process, the next pass) finds nothing left.
    expect(await applyInboxedStatuses(db, { providerMessageIds: [providerMessageId] })).toBe(0);
  });

  it("the per-pass call without provider message ids applies what a crashed process left held", async () => {
    const { workspaceId } = await createTestAccount();
    const recent = newProviderMessageId();
    const old = newProviderMessageId();
    const recentId = await createTestMessage({ workspaceId, status: "sending" });
    const oldId = await createTestMessage({ workspaceId, status: "sending" });
    const db = await getDb();
    await recordStatusReports(db, [report(recent, workspaceId, "read", secondsAgo(3)), report(old, workspaceId, "delivered", secondsAgo(3))]);
    // Received an hour ago: outside the per-pass window, found by the full sweep.
    await db.update(messageStatusInbox).set({ receivedAt: secondsAgo(3600) }).where(eq(messageStatusInbox.providerMessageId, old));
    await storeProviderMessageId(recentId, recent, secondsAgo(4));
    await storeProviderMessageId(oldId, old, secondsAgo(4));

    await applyInboxedStatuses(db, { full: false });
    expect(await getTestMessage(recentId)).toMatchObject({ status: "read", deliveredAt: secondsAgo(3), readAt: secondsAgo(3) });
    expect((await getTestMessage(oldId)).status).toBe("sent");

    await applyInboxedStatuses(db, { full: true });
    expect((await getTestMessage(oldId)).status).toBe("delivered");
    expect(await held([recent, old])).toHaveLength(0);
  });
});

describe("pruneStatusInbox", () => {
  it("deletes held statuses after 7 days and logs each one once", async () => {
    const { workspaceId } = await createTestAccount();
    const expired = newProviderMessageId();
    const fresh = newProviderMessageId();
    const db = await getDb();
    await recordStatusReports(db, [report(expired, workspaceId, "sent", secondsAgo(10)), report(fresh, workspaceId, "sent", secondsAgo(10))]);
    await db
      .update(messageStatusInbox)
      .set({ receivedAt: new Date(Date.now() - 7 * 24 * 3600_000 - 60_000) })
      .where(and(eq(messageStatusInbox.providerMessageId, expired), eq(messageStatusInbox.workspaceId, workspaceId)));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});

    expect(await pruneStatusInbox(db)).toBeGreaterThanOrEqual(1);
    expect(await pruneStatusInbox(db)).toBe(0);
    const logged = warn.mock.calls.map((call) => String(call[0])).join("\n");
    expect(logged.split(expired).length - 1).toBe(1);
    expect(logged).not.toContain(fresh);
    expect(await held([expired])).toHaveLength(0);
    expect(await held([fresh])).toHaveLength(1);
  });
});
