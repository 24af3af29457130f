import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createSender } from "@/lib/senders/collection";
import { createTestAccount } from "@/lib/testing/factories";
import { createBulkPacing } from "./bulk-pacing";
import type { ClaimedMessage } from "./claims";
import { createLane, putBack, type Lane } from "./lanes";
import { createThroughputLimiter } from "./throughput";

/** The most send moments in any 1-second window [t, t + 1000). */
const peakPerSecond = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1_000) j++;
    peak = Math.max(peak, j - i);
  }
  return peak;
};

describe("the pace of a bulk campaign", () => {
  it("two passes with nothing in common but the campaign's lane never put more than its rate into a 1-second window, however late their messages come", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const campaignId = newId("cmp");
    await db.insert(campaigns).values({ id: campaignId, workspaceId, name: "Spring sale", kind: "bulk", status: "sending", sendRatePerSecond: 10, launchedAt: new Date() });
    // A virtual clock: sleepers wake in time order once everything else has run.
    let t = 1_000_000;
    const timers: { at: number; wake: () => void }[] = [];
    const sleep = (ms: number) => new Promise<void>((wake) => timers.push({ at: t + Math.max(0, ms), wake }));
    // Deterministic "randomness": how long each message waits for its sender's slot (0–59 ms).
    let seed = 7;
    const senderWait = () => (seed = (seed * 48_271) % 2_147_483_647) % 60;
    // The lane store both passes share (Postgres in production); nothing else is shared.
    const limiter = createThroughputLimiter();
    const sender = { id: newId("snd"), workspaceId, channel: "sandbox" as const, address: null, accessTokenEncrypted: null, throughputPerSecond: 80 };
    const moments: number[] = [];
    const run = async () => {
      const pacing = createBulkPacing({ db, limiter, now: () => t, settleStopped: async () => {}, onlyWorkspaceIds: [workspaceId] });
      await pacing.refresh([]);
      const lane: Lane = createLane(sender, limiter);
      lane.bulk.set(campaignId, Array.from({ length: 50 }, () => ({ id: newId("msg"), campaignId, source: "bulk" }) as ClaimedMessage));
      for (;;) {
        const next = await pacing.next(lane, t);
        if (next === null) return;
        if ("waitMs" in next) {
          await sleep(next.waitMs);
          continue;
        }
        // The message waits for its sender's slot (triggers go first), then for its campaign's.
        await sleep(senderWait());
        const at = await pacing.sendMoment(campaignId, next.campaignRate!, sleep);
        if (at === null) {
          // The other pass holds the campaign's next slots: back to the lane until its own comes.
          putBack(lane, next.message);
          continue;
        }
        expect(at).toBe(t);
        moments.push(at);
      }
    };
    const passes = Promise.all([run(), run()]);
    let done = false;
    void passes.finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      timers.sort((a, b) => a.at - b.at);
      const timer = timers.shift();
      if (!timer) continue;
      t = Math.max(t, timer.at);
      timer.wake();
    }
    await passes;
    expect(moments).toHaveLength(100);
    expect(peakPerSecond(moments)).toBeLessThanOrEqual(10);
    // Slots gone stale are replaced, not lost for good: 100 sends at 10/s (96 % of it) take 10 to 12 s.
    const span = Math.max(...moments) - Math.min(...moments);
    expect(span).toBeGreaterThanOrEqual(9_900);
    expect(span).toBeLessThan(12_000);
  });
});

describe("how much a pass claims for a bulk campaign", () => {
  it("sizes a campaign without its own rate by its own sender's throughput, not another number's of the workspace", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const slow = await createSender(db, workspaceId, { provider: "sandbox", name: "Coexistence number" });
    const fast = await createSender(db, workspaceId, { provider: "sandbox", name: "Upgraded number" });
    const rates = new Map([[slow.id, 20], [fast.id, 1000]]);
    const campaignId = newId("cmp");
    await db.insert(campaigns).values({ id: campaignId, workspaceId, name: "Spring sale", kind: "bulk", status: "sending", senderId: slow.id, launchedAt: new Date() });
    const want = async () => {
      const pacing = createBulkPacing({ db, limiter: createThroughputLimiter(), now: () => 0, settleStopped: async () => {}, onlyWorkspaceIds: [workspaceId] });
      await pacing.refresh([]);
      // The workspace's lanes, as a pass sees them: the fast number's first.
      return pacing.claimWants(() => 0, (campaign) => (campaign.senderId ? rates.get(campaign.senderId) : undefined) ?? rates.get(fast.id))[0]!.count;
    };
    const onSlow = await want();
    await db.update(campaigns).set({ senderId: fast.id }).where(eq(campaigns.id, campaignId));
    expect(await want()).toBe(onSlow * 50);
  });
});
