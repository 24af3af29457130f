// How a dispatch pass stops. Told to stop (shutdown: the process's signal aborts; or its claim
// owner's lock was found free, so others may be taking its claims over), it claims nothing more,
// every lane wakes and hands back what it holds (`queued`, attempt not counted; a cancelled
// campaign's messages are skipped), requests in flight get ABORT_GRACE_MS, and any still open then
// are marked outcome unknown: they may reach Meta and are never sent again.
import type { Lane } from "./lanes";
import type { BulkPacing, OutcomeWrites } from "./lane-runner";
import type { ClaimedMessage } from "./claims";
import { ABORT_GRACE_MS, type Clock } from "./dispatch-contract";

export interface PassShutdown {
  /** True once the pass must stop. */
  stopping(): boolean;
  /** True when it stopped because the claim owner's lock was lost (not a shutdown). */
  ownerGone(): boolean;
  /** The claim owner's lock was found free: stop, and wake every lane. False when already known. */
  ownerLost(): boolean;
  /** Stops listening to the signal (the pass has returned). */
  detach(): void;
}

/** Watches `signal` for the pass; `wake` is called when the pass must stop (every lane rechecks at once). */
export function watchShutdown(signal: AbortSignal | undefined, wake: () => void): PassShutdown {
  let ownerGone = false;
  signal?.addEventListener("abort", wake, { once: true });
  return {
    stopping: () => signal?.aborted === true || ownerGone,
    ownerGone: () => ownerGone,
    ownerLost() {
      if (ownerGone) return false;
      ownerGone = true;
      wake();
      return true;
    },
    detach: () => signal?.removeEventListener("abort", wake),
  };
}

/** Empties the lane: everything still held goes back to the queue (or is skipped, for a cancelled campaign). */
export async function releaseLane(
  lane: Lane,
  notBefore: number,
  deps: { handBack: OutcomeWrites["handBack"]; settleStopped: OutcomeWrites["settleStopped"]; bulkPacing: BulkPacing },
): Promise<void> {
  const priority = lane.priority.splice(0);
  const bulk = [...lane.bulk.entries()];
  lane.bulk.clear();
  await deps.handBack(priority, notBefore);
  for (const [campaignId, queue] of bulk) {
    deps.bulkPacing.forget(campaignId);
    const status = deps.bulkPacing.status(campaignId);
    await (status === "cancelled" ? deps.settleStopped(queue, status) : deps.handBack(queue, notBefore));
  }
}

/**
 * After the pass was told to stop: gives its tasks (lanes handing back, requests in flight) up to
 * ABORT_GRACE_MS, then marks every request still open as outcome unknown (the process is about to
 * exit, or others are taking its claims over).
 */
export async function settleStoppedPass(input: {
  shutdown: PassShutdown;
  wakeAll: () => void;
  tasks: Set<Promise<void>>;
  sending: Set<ClaimedMessage>;
  clock: Clock;
  markOutcomeUnknown: OutcomeWrites["markOutcomeUnknown"];
}): Promise<void> {
  const { tasks, clock } = input;
  input.wakeAll();
  const abortedAt = clock.now();
  while (tasks.size > 0 && clock.now() - abortedAt < ABORT_GRACE_MS) {
    await Promise.race([Promise.allSettled([...tasks]), clock.sleep(50)]);
  }
  const reason = input.shutdown.ownerGone()
    ? "The dispatcher lost its claim on this message while the request to WhatsApp was open; the message may have been delivered."
    : "The server shut down while the request to WhatsApp was open; the message may have been delivered.";
  for (const message of [...input.sending]) await input.markOutcomeUnknown(message, reason);
}
