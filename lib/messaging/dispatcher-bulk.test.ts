// The dispatcher's side of bulk campaigns: priority of trigger messages, pacing at the campaign's
// rate, pause and cancel while the pass holds claimed messages.
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { campaigns, messages, senders } from "@/db/schema";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { createBulkFixture } from "@/lib/bulk/test-fixtures";
import { dispatchDependencies } from "@/lib/engine/jobs";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestCampaign, getTestMessage, TEST_TEMPLATE_PAYLOAD } from "@/lib/testing/messaging-factories";
import type { DispatchChannels } from "./dispatch-contract";
import { runDispatch, systemClock, type DispatchOptions } from "./dispatcher";
import type { Channel } from "@/lib/channels";
import { fakeChannels } from "@/lib/testing/fake-channels";

const FUTURE = 30 * 60_000;
const clock = { now: () => Date.now() + FUTURE, sleep: systemClock.sleep };

async function setup(throughputPerSecond: number) {
  const account = await createTestAccount();
  const db = await getDb();
  const [sender] = await db
    .update(senders)
    .set({ throughputPerSecond })
    .where(eq(senders.workspaceId, account.workspaceId))
    .returning({ id: senders.id });
  return { workspaceId: account.workspaceId, senderId: sender!.id };
}

async function bulkCampaign(workspaceId: string, sendRatePerSecond: number | null): Promise<string> {
  const db = await getDb();
  const id = newId("cmp");
  await db.insert(campaigns).values({ id, workspaceId, name: "Spring sale", kind: "bulk", status: "sending", sendRatePerSecond, launchedAt: new Date() });
  return id;
}

async function queueMessages(input: { workspaceId: string; senderId: string; campaignId: string; source: "bulk" | "trigger"; count: number; dueAt?: Date }) {
  const db = await getDb();
  const rows = Array.from({ length: input.count }, (_, i) => ({
    id: newId("msg"),
    workspaceId: input.workspaceId,
    campaignId: input.campaignId,
    senderId: input.senderId,
    source: input.source,
    phoneNumber: `+1415556${String(i).padStart(4, "0")}`,
    templateName: "order_update",
    templateLanguage: "en_US",
    renderedText: "Hi Jessica, the spring sale starts today.",
    payload: TEST_TEMPLATE_PAYLOAD,
    nextAttemptAt: input.dueAt ?? new Date(Date.now() + FUTURE - 1_000),
  }));
  for (let i = 0; i < rows.length; i += 1_000) await db.insert(messages).values(rows.slice(i, i + 1_000));
  return rows.map((r) => r.id);
}

function recordingProvider() {
  const sends: { id: string; at: number }[] = [];
  const provider: Pick<Channel, "send"> = {
    async send(message) {
      sends.push({ id: message.id, at: Date.now() });
      return { providerMessageId: `wamid.BULK.${message.id}` };
    },
  };
  return { sends, channels: fakeChannels(provider.send) };
}

const peakPerSecond = (times: number[], windowMs = 1_000) => Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));

async function dispatch(workspaceId: string, channels: DispatchChannels, options: DispatchOptions = {}) {
  return runDispatch({ ...dispatchDependencies(), db: await getDb(), clock, channels }, { deadlineMs: 30_000, ...options, workspaceIds: [workspaceId] });
}

describe("bulk campaigns in the dispatcher", () => {
  it("sends a trigger message within 2 s while a large bulk campaign is sending on the same sender", async () => {
    const { workspaceId, senderId } = await setup(40);
    const campaignId = await bulkCampaign(workspaceId, null);
    const bulk = await queueMessages({ workspaceId, senderId, campaignId, source: "bulk", count: 2_000 });
    const { sends, channels } = recordingProvider();
    const controller = new AbortController();
    const pass = dispatch(workspaceId, channels, { signal: controller.signal });
    await expect.poll(() => sends.length, { timeout: 20_000 }).toBeGreaterThan(20);
    const [trigger] = await queueMessages({ workspaceId, senderId, campaignId: await createTestCampaign(workspaceId), source: "trigger", count: 1 });
    const queuedAt = Date.now();
    await expect.poll(() => sends.some((s) => s.id === trigger), { timeout: 10_000 }).toBe(true);
    const sentAt = sends.find((s) => s.id === trigger)!.at;
    controller.abort();
    await pass;
    expect(sentAt - queuedAt).toBeLessThan(2_000);
    // The bulk send was far from done: the trigger message jumped the queue.
    expect(sends.filter((s) => bulk.includes(s.id)).length).toBeLessThan(1_000);
    expect(await getTestMessage(trigger!)).toMatchObject({ status: "sent" });
  }, 90_000);

  it("paces a campaign at its own send rate: no 1-second window above it", async () => {
    const { workspaceId, senderId } = await setup(80);
    const campaignId = await bulkCampaign(workspaceId, 10);
    const ids = await queueMessages({ workspaceId, senderId, campaignId, source: "bulk", count: 40 });
    const { sends, channels } = recordingProvider();
    await dispatch(workspaceId, channels);
    const times = sends.filter((s) => ids.includes(s.id)).map((s) => s.at);
    expect(times).toHaveLength(40);
    // The stored sent_at is the moment the cap let each request go: no 1-second window above the rate.
    const stored = await Promise.all(ids.map(getTestMessage));
    expect(peakPerSecond(stored.map((row) => row.sentAt!.getTime()))).toBeLessThanOrEqual(10);
    // The provider is called right after that moment (a tick, a GC pause or, on a loaded machine, a
    // starved event loop in between at most), so its arrival times obey the cap over windows
    // shortened by that lag.
    const sentAt = new Map(stored.map((row) => [row.id, row.sentAt!.getTime() - FUTURE]));
    const lag = Math.max(...sends.filter((s) => ids.includes(s.id)).map((s) => s.at - sentAt.get(s.id)!));
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(400);
    expect(peakPerSecond(times, 1_000 - lag)).toBeLessThanOrEqual(10);
    // 40 at 10/s cannot take less than 3 s (four windows of at most 10); bench:dispatch measures the time to finish.
    const sorted = [...times].sort((a, b) => a - b);
    expect(sorted.at(-1)! - sorted[0]!).toBeGreaterThanOrEqual(3_000);
  });

  it.each([
    { paced: "its own 40/s (number at 80/s)", sendRatePerSecond: 40, throughputPerSecond: 80 },
    { paced: "its number's 40/s (no rate of its own)", sendRatePerSecond: null, throughputPerSecond: 40 },
  ])("holds a campaign at $paced to 40 sends in every 1-second window of sent_at from its launch, with triggers on its sender and two dispatchers in separate module graphs", async ({ sendRatePerSecond, throughputPerSecond }) => {
    const fixture = await createBulkFixture({ contacts: 240 });
    const db = await getDb();
    await db.update(campaigns).set({ sendRatePerSecond }).where(eq(campaigns.id, fixture.campaignId));
    const [sender] = await db.update(senders).set({ throughputPerSecond }).where(eq(senders.workspaceId, fixture.workspaceId)).returning({ id: senders.id });
    const triggerCampaign = await createTestCampaign(fixture.workspaceId);
    const launchedAt = Date.now();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    // Next loads server modules in more than one graph per process, and several processes dispatch:
    // the second dispatcher shares nothing in memory with the first, only the database.
    vi.resetModules();
    const other = await import("./dispatcher");
    const { channels } = recordingProvider();
    const options = { deadlineMs: 6_000, workspaceIds: [fixture.workspaceId] };
    const passes = Promise.all([runDispatch({ ...dispatchDependencies(), db, channels }, options), other.runDispatch({ ...dispatchDependencies(), db, channels }, options)]);
    // Trigger messages on the same sender go first and keep it busy in bursts.
    const triggers: string[] = [];
    for (let burst = 0; burst < 8; burst++) {
      const ids = await queueMessages({ workspaceId: fixture.workspaceId, senderId: sender!.id, campaignId: triggerCampaign, source: "trigger", count: 12, dueAt: new Date() });
      triggers.push(...ids);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const summaries = await passes;
    expect(summaries.every((summary) => summary.sent > 0)).toBe(true);
    const sentAt = (await db.select({ sentAt: messages.sentAt }).from(messages).where(and(eq(messages.campaignId, fixture.campaignId), isNotNull(messages.sentAt))))
      .map((row) => row.sentAt!.getTime());
    expect(sentAt.length).toBeGreaterThan(40);
    expect(Math.min(...sentAt)).toBeGreaterThanOrEqual(launchedAt);
    // Every 1-second window of sent_at: the busiest starts at some send.
    expect(peakPerSecond(sentAt)).toBeLessThanOrEqual(40);
    expect((await Promise.all(triggers.map(getTestMessage))).filter((row) => row.status === "sent").length).toBeGreaterThan(0);
    // The number itself, bulk and triggers together, never above its throughput either.
    const senderSentAt = (await db.select({ sentAt: messages.sentAt }).from(messages).where(and(eq(messages.senderId, sender!.id), isNotNull(messages.sentAt))))
      .map((row) => row.sentAt!.getTime());
    expect(peakPerSecond(senderSentAt)).toBeLessThanOrEqual(throughputPerSecond);
  }, 90_000);

  it("sends nothing more within 1 s of a pause and hands held messages back without counting the attempt", async () => {
    const { workspaceId, senderId } = await setup(80);
    const campaignId = await bulkCampaign(workspaceId, 10);
    const ids = await queueMessages({ workspaceId, senderId, campaignId, source: "bulk", count: 60 });
    const { sends, channels } = recordingProvider();
    const pass = dispatch(workspaceId, channels);
    await expect.poll(() => sends.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
    const db = await getDb();
    await db.update(campaigns).set({ status: "paused" }).where(eq(campaigns.id, campaignId));
    const pausedAt = Date.now();
    await pass;
    const after = sends.filter((s) => s.at > pausedAt + 1_000);
    expect(after).toHaveLength(0);
    const rows = await Promise.all(ids.map(getTestMessage));
    const sent = new Set(sends.map((s) => s.id));
    for (const row of rows) {
      if (sent.has(row.id)) expect(row.status).toBe("sent");
      else expect(row).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null });
    }
    expect(rows.filter((r) => r.status === "queued").length).toBeGreaterThan(0);
  });

  it("skips the messages it holds when the campaign is cancelled", async () => {
    const { workspaceId, senderId } = await setup(80);
    const campaignId = await bulkCampaign(workspaceId, 10);
    const ids = await queueMessages({ workspaceId, senderId, campaignId, source: "bulk", count: 60 });
    const { sends, channels } = recordingProvider();
    const pass = dispatch(workspaceId, channels);
    await expect.poll(() => sends.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
    const db = await getDb();
    // What the bulk backend's cancel does: the campaign, and its still-queued messages in one statement.
    await db.update(campaigns).set({ status: "cancelled" }).where(eq(campaigns.id, campaignId));
    await db
      .update(messages)
      .set({ status: "skipped", errorCode: "cancelled", errorReason: "The campaign was cancelled." })
      .where(and(eq(messages.campaignId, campaignId), eq(messages.status, "queued")));
    const cancelledAt = Date.now();
    const summary = await pass;
    expect(sends.filter((s) => s.at > cancelledAt + 1_000)).toHaveLength(0);
    const rows = await Promise.all(ids.map(getTestMessage));
    expect(rows.filter((r) => r.status === "queued" || r.status === "sending")).toHaveLength(0);
    const skipped = rows.filter((r) => r.status === "skipped");
    expect(skipped.length).toBe(60 - sends.length);
    expect(skipped.every((r) => r.errorCode === "cancelled" && r.attempts === 0)).toBe(true);
    // The held ones were skipped by the dispatcher itself.
    expect(summary.skipped).toBeGreaterThan(0);
  });

  it("does not claim bulk messages of a campaign that is not sending", async () => {
    const { workspaceId, senderId } = await setup(80);
    const campaignId = await bulkCampaign(workspaceId, null);
    const db = await getDb();
    await db.update(campaigns).set({ status: "paused" }).where(eq(campaigns.id, campaignId));
    const ids = await queueMessages({ workspaceId, senderId, campaignId, source: "bulk", count: 5 });
    const { sends, channels } = recordingProvider();
    await dispatch(workspaceId, channels);
    expect(sends).toHaveLength(0);
    expect((await Promise.all(ids.map(getTestMessage))).every((r) => r.status === "queued" && r.attempts === 0)).toBe(true);
  });
});
