import { describe, expect, it } from "vitest";
import { createThroughputLimiter } from "./throughput";

describe("throughput limiter", () => {
  it("spaces slots 1000/rate ms apart per key, and lets an idle key send at once", () => {
    const limiter = createThroughputLimiter();
    const waits = Array.from({ length: 5 }, () => limiter.reserve("a", 80, 1_000));
    expect(waits).toEqual([0, 12.5, 25, 37.5, 50]);
    expect(limiter.reserve("b", 80, 1_000)).toBe(0);
    expect(limiter.backlogMs("a", 1_000)).toBe(62.5);
    expect(limiter.reserve("a", 80, 10_000)).toBe(0);
  });

  it("books nothing when the slot is further away than maxWaitMs", () => {
    const limiter = createThroughputLimiter();
    limiter.reserve("a", 1, 0);
    expect(limiter.reserve("a", 1, 0, 500)).toBeNull();
    expect(limiter.reserve("a", 1, 0, 1_000)).toBe(1_000);
  });

  it("lets a sender that fell slightly behind catch up, but never more than a few slots", () => {
    const limiter = createThroughputLimiter();
    for (let i = 0; i < 80; i++) limiter.reserve("a", 80, 0);
    // The process stalled 20 ms past the booked slot (1000 ms): it may use the missed slots ...
    expect(limiter.reserve("a", 80, 1_020)).toBe(0);
    expect(limiter.reserve("a", 80, 1_020)).toBe(0);
    // ... and is back on its schedule (1025 ms) right after.
    expect(limiter.reserve("a", 80, 1_020)).toBe(5);
    // A long stall does not turn into a burst: the schedule restarts at now.
    expect(limiter.reserve("a", 80, 5_000)).toBe(0);
    expect(limiter.reserve("a", 80, 5_000)).toBe(12.5);
  });

  it("holds any 1-second window to the rate (plus the catch-up allowance) over a long run", () => {
    const limiter = createThroughputLimiter();
    const times: number[] = [];
    let now = 0;
    while (times.length < 800) {
      const wait = limiter.reserve("a", 80, now)!;
      now += wait + (times.length % 7 === 0 ? 3 : 0); // late wake-ups
      times.push(now);
    }
    let peak = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    expect(peak).toBeLessThanOrEqual(82);
    const rate = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
    expect(rate).toBeGreaterThan(76);
    expect(rate).toBeLessThanOrEqual(80.5);
  });
});
