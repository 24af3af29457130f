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
}

export function createLane(sender: ChannelSender, limiter: ThroughputLimiter): Lane {
  return { sender, priority: [], bulk: new Map(), slots: new SlotBlock(limiter, senderLane(sender.id)), running: null, wake: null, pausedUntil: 0 };
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
