// A pass's in-memory queues: one lane per sender, trigger and test messages first, bulk messages
// per campaign behind them; and the bound on provider requests in flight.
import type { ClaimedMessage } from "./claims";
import type { ChannelSender } from "@/lib/channels";
import { senderLane, SlotBlock, type ThroughputLimiter } from "./throughput";

export interface Lane {
  sender: ChannelSender;
  priority: ClaimedMessage[];
  /** Bulk messages per campaign, oldest first. */
  bulk: Map<string, ClaimedMessage[]>;
  slots: SlotBlock;
  running: Promise<void> | null;
  wake: (() => void) | null;
  /** No send before this time (ms): the provider asked the number to slow down (130429). */
  pausedUntil: number;
  /** The moments the sender's last requests left this process (at most its rate in any second). */
  departures: DepartureWindow;
}

export function createLane(sender: ChannelSender, limiter: ThroughputLimiter): Lane {
  return {
    sender,
    priority: [],
    bulk: new Map(),
    slots: new SlotBlock(limiter, senderLane(sender.id)),
    running: null,
    wake: null,
    pausedUntil: 0,
    departures: departureWindowOf(sender.id),
  };
}

/** Adds a claimed message at the back of its queue; a trigger or test message wakes the lane at once. */
export function addToLane(lane: Lane, message: ClaimedMessage) {
  if (message.source === "bulk") {
    const queue = lane.bulk.get(message.campaignId) ?? [];
    queue.push(message);
    lane.bulk.set(message.campaignId, queue);
  } else {
    lane.priority.push(message);
    lane.wake?.(); // a trigger message does not wait behind a bulk campaign's pacing
  }
}

/** Returns a taken message to the front of its queue in the lane. */
export function putBack(lane: Lane, message: ClaimedMessage) {
  if (message.source !== "bulk") {
    lane.priority.unshift(message);
    return;
  }
  const queue = lane.bulk.get(message.campaignId);
  if (queue) queue.unshift(message);
  else lane.bulk.set(message.campaignId, [message]);
}

export const laneSize = (lane: Lane) => lane.priority.length + [...lane.bulk.values()].reduce((n, q) => n + q.length, 0);

export function semaphore(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async acquire() {
      if (free > 0) {
        free--;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
    get inUse() {
      return size - free;
    },
  };
}

/**
 * The moments a lane's last requests left, so that no 1-second window holds more than the sender's
 * rate of them in this process. Slots pace the moment a send is let go; its request leaves once its
 * in-flight mark is stored, and marks come back in batches (a statement that took 50 ms frees the
 * requests of 50 slots together): at 1,000/s, bench:top-rate's fake Graph API saw up to 1,153
 * requests in one second while no second of slots held more than 983. This bound holds the requests
 * themselves, in this process; across processes the shared slots still do.
 */
export class DepartureWindow {
  /** The last departures, oldest at `head` once the ring is full. */
  private ring: number[] = [];
  private head = 0;

  private resize(size: number) {
    const ordered = [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    this.ring = ordered.slice(Math.max(0, ordered.length - size));
    this.head = 0;
  }

  /** How long (ms) one more request must wait at `now` to keep every 1-second window within `perSecond`. */
  waitMs(perSecond: number, now: number): number {
    const size = Math.max(1, Math.floor(perSecond));
    if (this.ring.length > size) this.resize(size);
    if (this.ring.length < size) return 0;
    // Never more than a second, even if the clock went back (a virtual clock, a stepped host clock).
    return Math.max(0, Math.min(1_000, this.ring[this.head]! + 1_000 - now));
  }

  /** A request left at `now`. */
  record(perSecond: number, now: number): void {
    const size = Math.max(1, Math.floor(perSecond));
    if (this.ring.length > size) this.resize(size);
    if (this.ring.length < size) {
      if (this.head !== 0) this.resize(size);
      this.ring.push(now);
      return;
    }
    this.ring[this.head] = now;
    this.head = (this.head + 1) % size;
  }
}

/**
 * The sender's window in this process, shared by its passes (the engine loop's, those after trigger
 * responses) and module graphs (Next loads server modules more than once per process).
 */
export function departureWindowOf(senderId: string): DepartureWindow {
  const global = globalThis as { __sendstreamDepartures?: Map<string, DepartureWindow> };
  global.__sendstreamDepartures ??= new Map();
  let window = global.__sendstreamDepartures.get(senderId);
  if (!window) global.__sendstreamDepartures.set(senderId, (window = new DepartureWindow()));
  return window;
}
