import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { newId } from "@/lib/crypto/random";
import { createSharedThroughputLimiter, createThroughputLimiter, intervalUs, SlotBlock, type ThroughputLimiter } from "./throughput";

/** Milliseconds between two slots at `perSecond` (spaced for a little under the rate). */
const gap = (perSecond: number) => intervalUs(perSecond) / 1000;

const lanes: [string, () => Promise<ThroughputLimiter>][] = [
  ["in this process", async () => createThroughputLimiter()],
  ["shared through the database", async () => createSharedThroughputLimiter(await getDb())],
];

describe.each(lanes)("throughput lanes (%s)", (_, make) => {
  it("hands out consecutive blocks of slots just over 1000/rate ms apart, and an idle lane starts now", async () => {
    const limiter = await make();
    const key = `sender:${newId("snd")}`;
    expect(gap(80)).toBeGreaterThan(12.5);
    expect(gap(80)).toBeLessThan(13.1);
    expect(await limiter.reserve(key, 80, 4, 1_000)).toBe(1_000);
    expect(await limiter.reserve(key, 80, 2, 1_000)).toBeCloseTo(1_000 + 4 * gap(80), 3);
    expect(await limiter.reserve(key, 80, 1, 1_000)).toBeCloseTo(1_000 + 6 * gap(80), 3);
    expect(await limiter.reserve(`sender:${newId("snd")}`, 80, 1, 1_000)).toBe(1_000);
  });

  it("lets a lane that fell slightly behind catch up by a few slots, never more", async () => {
    const limiter = await make();
    const key = `sender:${newId("snd")}`;
    await limiter.reserve(key, 80, 80, 0); // booked up to 80 slots from 0
    const booked = 80 * gap(80);
    // 20 ms late: the missed slots are still within the 2.5 % allowance (two slots).
    expect(await limiter.reserve(key, 80, 1, booked + 20)).toBeCloseTo(booked, 3);
    // A long stall does not turn into a burst: the schedule restarts two slots back.
    expect(await limiter.reserve(key, 80, 1, 5_000)).toBeCloseTo(5_000 - 2 * gap(80), 3);
  });

  it("holds a lane back after a slow-down without moving it backwards", async () => {
    const limiter = await make();
    const key = `sender:${newId("snd")}`;
    await limiter.holdUntil(key, 3_000);
    expect(await limiter.reserve(key, 10, 1, 1_000)).toBe(3_000);
    await limiter.holdUntil(key, 2_000);
    expect(await limiter.reserve(key, 10, 1, 1_000)).toBeCloseTo(3_000 + gap(10), 3);
  });
});

describe("slot blocks", () => {
  it("reserve small blocks, hand out one slot at a time and drop slots that are too late", async () => {
    const reservations: number[] = [];
    const inner = createThroughputLimiter();
    const limiter: ThroughputLimiter = {
      reserve: (key, rate, count, now) => {
        reservations.push(count);
        return inner.reserve(key, rate, count, now);
      },
      holdUntil: (key, until) => inner.holdUntil(key, until),
    };
    const block = new SlotBlock(limiter, "sender:x");
    const slots = [];
    for (let i = 0; i < 6; i++) slots.push(await block.take(20, () => 0, 100));
    // At 20/s a block is at most a quarter of a second: 5 slots per reservation.
    expect(reservations).toEqual([5, 5]);
    slots.forEach((slot, i) => expect(slot).toBeCloseTo(i * gap(20), 3));
    // Much later: the slots still held are stale and dropped, a new block starts near now.
    expect(await block.take(20, () => 10_000, 1)).toBe(10_000);
  });

  it("asks for slots from when the answer is due back, so a reservation slower than its block's span still yields usable slots", async () => {
    // 10,000/s and 20 slots wanted: a block spans about 2 ms, a reservation takes 50 ms on this clock.
    let clock = 0;
    const inner = createThroughputLimiter();
    const starts: number[] = [];
    const limiter: ThroughputLimiter = {
      reserve: async (key, rate, count, now) => {
        starts.push(now);
        if (starts.length > 10) throw new Error("reserving without end: every block came back late");
        const first = await inner.reserve(key, rate, count, now);
        clock += 50;
        return first;
      },
      holdUntil: (key, until) => inner.holdUntil(key, until),
    };
    const block = new SlotBlock(limiter, "sender:slow");
    const slot = await block.take(10_000, () => clock, 20);
    // The first block came back entirely late and was dropped; the next one was asked for from when its answer was due.
    expect(starts).toEqual([0, 100]);
    expect(clock - slot).toBeLessThanOrEqual(25);
    // Once the round trip is known, later blocks arrive usable (up to the catch-up allowance that lies behind the tolerance).
    for (let i = 0; i < 19; i++) expect(clock - (await block.take(10_000, () => clock, 20))).toBeLessThanOrEqual(25);
    expect(starts.length).toBeLessThanOrEqual(3);
  });

  it("with several processes on one shared lane, no second holds more slots than the rate (+ catch-up)", async () => {
    const db = await getDb();
    const key = `sender:${newId("snd")}`;
    const blocks = [1, 2, 3].map(() => new SlotBlock(createSharedThroughputLimiter(db), key));
    const slots: number[] = [];
    const start = 1_000_000;
    await Promise.all(
      blocks.map(async (block) => {
        for (let i = 0; i < 40; i++) slots.push(await block.take(20, () => start, 40));
      }),
    );
    slots.sort((a, b) => a - b);
    expect(new Set(slots).size).toBe(slots.length);
    let peak = 0;
    for (let i = 0; i < slots.length; i++) {
      const inWindow = slots.filter((s) => s >= slots[i]! && s < slots[i]! + 1_000).length;
      peak = Math.max(peak, inWindow);
    }
    expect(peak).toBeLessThanOrEqual(21);
  });
});
