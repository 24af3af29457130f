import { describe, expect, it } from "vitest";
import { newId } from "@/lib/crypto/random";
import { createBulkPacing, type BulkPacingDeps } from "./bulk-pacing";
import { createThroughputLimiter } from "./throughput";

function pacing(now: () => number, sendTimes?: Map<string, number[]>) {
  const deps: BulkPacingDeps = {
    // The per-second cap reads no database.
    db: null as unknown as BulkPacingDeps["db"],
    limiter: createThroughputLimiter(),
    now,
    settleStopped: async () => {},
    sendTimes,
  };
  return createBulkPacing(deps);
}

describe("the per-second cap of a bulk campaign", () => {
  it("lets the rate's worth of sends into any 1-second window, and says how long until the next may leave", () => {
    let t = 10_000;
    const cap = pacing(() => t, new Map());
    const campaignId = newId("cmp");
    for (let i = 0; i < 10; i++) {
      expect(cap.secondWaitMs(campaignId, 10)).toBe(0);
      cap.recordSend(campaignId, t);
      t += 20;
    }
    // Ten sends between 10,000 and 10,180: the eleventh may leave at 11,000, not a millisecond earlier.
    expect(cap.secondWaitMs(campaignId, 10)).toBe(11_000 - t);
    t = 10_999;
    expect(cap.secondWaitMs(campaignId, 10)).toBe(1);
    t = 11_000;
    expect(cap.secondWaitMs(campaignId, 10)).toBe(0);
  });

  it("is shared by the passes of a process: a new pass cannot start a second's worth over the last one's", () => {
    const t = 50_000;
    const campaignId = newId("cmp");
    const first = pacing(() => t);
    for (let i = 0; i < 10; i++) first.recordSend(campaignId, t - 500 + i);
    const next = pacing(() => t);
    expect(next.secondWaitMs(campaignId, 10)).toBe(500);
    // Another campaign has its own cap.
    expect(next.secondWaitMs(newId("cmp"), 10)).toBe(0);
  });
});
