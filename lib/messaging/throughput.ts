// Send-rate lanes: a lane (a sender's throughput, or a bulk campaign's send rate) hands out time
// slots `1000 / perSecond` ms apart (a little more: PACING_SHARE), so an idle lane sends at once and a busy one at its rate. The
// lane's next free slot lives in Postgres (`throughput_lanes`), so every dispatching process (the
// in-process loop, each serverless instance answering a trigger, cron) shares one schedule: N
// processes together never exceed the rate. A process reserves a small block of consecutive slots
// with one statement and sends at those times; slots it does not use are simply lost.
//
// A lane that fell behind may catch up by at most CATCH_UP_FRACTION of a second's slots, so no
// 1-second window exceeds the rate by more than that.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";

export interface ThroughputLimiter {
  /**
   * Reserves `count` consecutive slots of lane `key` at `perSecond` and returns the first slot's
   * time (ms since the epoch); the others follow `1000 / perSecond` ms apart. A lane that fell
   * behind starts at most CATCH_UP_FRACTION of a second's slots back.
   */
  reserve(key: string, perSecond: number, count: number, now: number): Promise<number>;
  /** No slot of lane `key` before `until` (ms): a slow-down asked for by the provider. */
  holdUntil(key: string, until: number): Promise<void>;
}

/** Share of a second's slots a late lane may still use back to back. */
export const CATCH_UP_FRACTION = 0.025;
/**
 * A reserved slot may still be used this late (a busy event loop, catch-up). Any 1-second window then
 * holds at most the slots of 1.02 s, which leaves room within rate + 5 % for the network's own
 * jitter between us and the provider (at 50 ms, one late slot plus jitter made 22 calls in a second
 * at 20/s).
 */
const LATE_SLOT_TOLERANCE_MS = 20;

/** How late (ms) a reserved slot of a lane at `perSecond` may still be used. */
export function lateSlotToleranceMs(perSecond: number): number {
  return Math.max(Math.floor(perSecond * CATCH_UP_FRACTION) * (1000 / Math.max(0.001, perSecond)), LATE_SLOT_TOLERANCE_MS);
}

/**
 * Slots are spaced for 96 % of the rate. The provider counts calls as they arrive, after our event
 * loop's and the network's jitter; at the full rate one late slot plus 30 ms of jitter put rate + 2
 * calls into a second. The margin costs 4 % of a lane's rate; for a bulk campaign's lane it is also what
 * holds every 1-second window of its sends to the rate (lib/messaging/bulk-pacing.ts).
 */
export const PACING_SHARE = 0.96;

/** Microseconds between two slots of a lane at `perSecond`. */
export const intervalUs = (perSecond: number) => Math.max(1, Math.round(1_000_000 / (PACING_SHARE * Math.max(0.001, perSecond))));
const catchUpUs = (perSecond: number) => Math.floor(perSecond * CATCH_UP_FRACTION) * intervalUs(perSecond);

export const senderLane = (senderId: string) => `sender:${senderId}`;
export const campaignLane = (campaignId: string) => `campaign:${campaignId}`;

/** The lanes in Postgres, shared by all processes. One statement per reservation. */
export function createSharedThroughputLimiter(db: Executor): ThroughputLimiter {
  return {
    async reserve(key, perSecond, count, now) {
      const step = intervalUs(perSecond);
      const nowUs = Math.round(now * 1000);
      const span = step * Math.max(1, Math.floor(count));
      const [row] = await queryRows<{ first_us: string | number }>(
        db,
        sql`insert into throughput_lanes as l (key, next_slot_us, updated_at)
          values (${key}, ${nowUs + span}, now())
          on conflict (key) do update
            set next_slot_us = greatest(l.next_slot_us, ${nowUs - catchUpUs(perSecond)}::bigint) + ${span}::bigint, updated_at = now()
          returning l.next_slot_us - ${span}::bigint as first_us`,
      );
      return Number(row!.first_us) / 1000;
    },
    async holdUntil(key, until) {
      const untilUs = Math.round(until * 1000);
      await queryRows(
        db,
        sql`insert into throughput_lanes as l (key, next_slot_us, updated_at) values (${key}, ${untilUs}, now())
          on conflict (key) do update set next_slot_us = greatest(l.next_slot_us, ${untilUs}::bigint), updated_at = now()
          returning l.key`,
      );
    },
  };
}

/** The same lanes held in this process only (unit tests, benchmarks of one process). */
export function createThroughputLimiter(): ThroughputLimiter {
  const nextFree = new Map<string, number>();
  return {
    async reserve(key, perSecond, count, now) {
      const step = intervalUs(perSecond);
      const nowUs = Math.round(now * 1000);
      const booked = nextFree.get(key);
      const first = booked === undefined ? nowUs : Math.max(booked, nowUs - catchUpUs(perSecond));
      nextFree.set(key, first + step * Math.max(1, Math.floor(count)));
      return first / 1000;
    },
    async holdUntil(key, until) {
      nextFree.set(key, Math.max(nextFree.get(key) ?? 0, Math.round(until * 1000)));
    },
  };
}

/** A reservation's round trip is trusted up to this long when asking for the next block's start. */
const MAX_ROUND_TRIP_ESTIMATE_MS = 1_000;

/**
 * A process's reserved slots on one lane: takes them one at a time, reserving a new block when
 * the current one is used up. Slots further back than the catch-up allowance are dropped.
 */
export class SlotBlock {
  private next = 0;
  private left = 0;
  private step = 0;
  /** How long a reservation takes to come back (smoothed), ms. */
  private roundTripMs = 0;
  /** Takes run one after another: two reserving at once would each get a block, and one would go unused. */
  private taking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly limiter: ThroughputLimiter,
    readonly key: string,
  ) {}

  /** The time (ms) of the next slot for a lane at `perSecond`; `want` sizes a new block. */
  take(perSecond: number, now: () => number, want: number): Promise<number> {
    const slot = this.taking.then(() => this.takeNext(perSecond, now, want));
    this.taking = slot.catch(() => {});
    return slot;
  }

  private async takeNext(perSecond: number, now: () => number, want: number): Promise<number> {
    const step = intervalUs(perSecond) / 1000;
    if (this.left > 0 && step !== this.step) this.left = 0; // the rate changed: start afresh
    // A slot a few ms late (the event loop was busy) is still used; older ones are dropped.
    const tolerance = lateSlotToleranceMs(perSecond);
    for (;;) {
      const oldest = now() - tolerance;
      while (this.left > 0 && this.next < oldest) {
        this.next += this.step;
        this.left--;
      }
      if (this.left > 0) break;
      // Small blocks (at most a quarter of a second) keep unused slots few when a lane runs dry.
      const count = Math.max(1, Math.min(Math.ceil(want), Math.ceil(perSecond / 4)));
      // Slots are asked for from when the answer is expected back: a block that spans less than a
      // reservation's round trip (a high rate, a loaded machine) would otherwise be late on arrival
      // every time, dropped, and asked for again without end.
      const askedAt = now();
      this.next = await this.limiter.reserve(this.key, perSecond, count, askedAt + this.roundTripMs);
      this.left = count;
      this.step = step;
      const took = Math.min(Math.max(0, now() - askedAt), MAX_ROUND_TRIP_ESTIMATE_MS);
      this.roundTripMs = this.roundTripMs === 0 ? took : this.roundTripMs * 0.7 + took * 0.3;
      // A slower reservation than expected can still return slots that are already late: the loop drops those.
    }
    const slot = this.next;
    this.next += this.step;
    this.left--;
    return slot;
  }

  /** Forgets the reserved slots (after a provider slow-down, which moved the lane on). */
  drop(): void {
    this.left = 0;
  }
}
