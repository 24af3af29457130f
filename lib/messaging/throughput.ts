// Per-sender throughput cap by time slotting: each send gets the next free slot for its sender,
// slots `1000 / perSecond` ms apart, so an idle sender sends at once and a busy one sends at its
// rate. A sender that fell behind (the process stalled past its slots) may catch up by at most
// CATCH_UP_FRACTION of a second's worth of slots, so no 1-second window exceeds the rate by more
// than that and short stalls do not lower the average rate. The state is per process: several instances each respect the cap, so
// running N dispatchers against one sender allows up to N × the rate (Meta answers 130429 beyond
// it, which is retried). One instance (the in-process loop, or Vercel cron) is the normal setup.

export interface ThroughputLimiter {
  /**
   * Books the next slot for `key` and returns how long to wait for it (ms, 0 = now). When the slot
   * would be more than `maxWaitMs` away nothing is booked and `null` is returned.
   */
  reserve(key: string, perSecond: number, now: number, maxWaitMs?: number): number | null;
  /** How far ahead (ms) `key` is booked; 0 when idle. */
  backlogMs(key: string, now: number): number;
}

/** Share of a second's slots a late sender may send back to back to catch up. */
export const CATCH_UP_FRACTION = 0.025;

export function createThroughputLimiter(): ThroughputLimiter {
  const nextFree = new Map<string, number>();
  return {
    reserve(key, perSecond, now, maxWaitMs = Infinity) {
      const interval = 1000 / Math.max(1, perSecond);
      const catchUp = Math.floor(perSecond * CATCH_UP_FRACTION) * interval;
      const booked = nextFree.get(key) ?? 0;
      // A slot in the past (up to `catchUp` behind) is still taken, so the average rate holds.
      const slot = booked >= now - catchUp ? booked : now;
      const wait = Math.max(0, slot - now);
      if (wait > maxWaitMs) return null;
      nextFree.set(key, slot + interval);
      if (nextFree.size > 10_000) {
        for (const [k, t] of nextFree) if (t < now) nextFree.delete(k);
      }
      return wait;
    },
    backlogMs(key, now) {
      return Math.max(0, (nextFree.get(key) ?? 0) - now);
    },
  };
}
