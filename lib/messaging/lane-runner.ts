// The lane runner of a dispatch pass: one in-memory lane per sender (lanes.ts), each worked by one
// loop that takes the next message (trigger and test messages first, then bulk messages at their
// campaign's pace: bulk-pacing.ts), waits for a slot of the sender's shared throughput
// (throughput.ts), marks the row in flight (in-flight.ts) and sends it through the sender's channel,
// then records the outcome (results.ts, outcomes.ts). What a lane still holds when it stops is handed
// back (shutdown.ts). Claiming and routing messages into lanes is claim-and-route.ts.
import type { ChannelSender } from "@/lib/channels";
import { describeError } from "@/lib/logging";
import type { createBulkPacing } from "./bulk-pacing";
import type { ClaimedMessage } from "./claims";
import type { Clock, DispatchChannels } from "./dispatch-contract";
import { retryDelayMs, type SendFailure } from "./errors";
import type { createInFlightMarks } from "./in-flight";
import { addToLane, createLane, laneSize, putBack, type Lane, type semaphore } from "./lanes";
import { guarded, type createOutcomeWrites } from "./outcomes";
import type { createSentWriter } from "./results";
import { releaseLane } from "./shutdown";
import { lateSlotToleranceMs, senderLane, type ThroughputLimiter } from "./throughput";

export type BulkPacing = ReturnType<typeof createBulkPacing>;
export type OutcomeWrites = ReturnType<typeof createOutcomeWrites>;
export type SentWriter = ReturnType<typeof createSentWriter>;
type InFlightMarks = ReturnType<typeof createInFlightMarks>;
type Semaphore = ReturnType<typeof semaphore>;

/** Time kept free at the end of a lease for the provider request and the result write. */
const SEND_BUDGET_MS = 15_000;
/** A sender is not claimed for while it already has this much held work. */
const SATURATED_BACKLOG_MS = 1_000;
/** A sender's slot is waited for at most this long; later ones are handed back to the queue. */
const MAX_SLOT_WAIT_MS = 20_000;
/** Claimed messages may still wait for their slot this long after the deadline (then handed back). */
export const DEADLINE_GRACE_MS = 5_000;
/**
 * A request leaves at most this long after its sender slot; one whose in-flight mark came back later
 * waits for a fresh slot instead. Slots are spaced for 96 % of the rate, so the requests of any
 * 1-second window then have slots within 1,000 + this many ms: at most rate + 5 % of them at any rate
 * (rate + 5 % + 1 slots span 1,093 ms), across every process sharing the sender, with 33 ms left for
 * the way to the provider.
 */
export const MAX_DEPARTURE_LATENESS_MS = 60;
/**
 * Below this rate a late request is sent at a fresh slot. There rate + 5 % allows fewer than five
 * extra requests in a second, so one straggler breaks it; a fresh slot costs the number one slot. At
 * higher rates the margin absorbs stragglers, the process's DepartureWindow holds a batch of them to
 * the rate, and fresh slots would cost too much: at 1,000/s on 2 cores (bench:top-rate, 60,000
 * recipients) marks came back p50 ~30 ms late and re-slotting cut the number from 940 to 825/s.
 */
export const RESLOT_BELOW_RATE = 100;
/** A late request waits at most this long for its fresh slot; a later one is handed back (queued, attempt not counted). */
const MAX_RESLOT_WAIT_MS = 2_000;

export interface LaneRunnerDeps {
  clock: Clock;
  /** The pass's deadline (epoch ms). */
  deadline: number;
  channels: DispatchChannels;
  limiter: ThroughputLimiter;
  random: () => number;
  maxAttempts: number;
  /** Bounds provider requests in flight over all lanes. */
  inFlight: Semaphore;
  marks: InFlightMarks;
  bulkPacing: BulkPacing;
  outcomes: OutcomeWrites;
  sentWriter: SentWriter;
  /** True once the pass must stop (shutdown, or the claim owner's lock was lost). */
  stopping: () => boolean;
  /** Counts a task as the pass's (the pass ends once every task has). */
  track: (task: Promise<void>) => void;
}

export type LaneRunner = ReturnType<typeof createLaneRunner>;

export function createLaneRunner(deps: LaneRunnerDeps) {
  const { clock, deadline, channels, limiter, random, maxAttempts, inFlight, marks, bulkPacing, sentWriter, stopping, track } = deps;
  const { fail, markOutcomeUnknown, handBack, settleStopped, scheduleRetry } = deps.outcomes;
  const lanes = new Map<string, Lane>();
  const recipientPausedUntil = new Map<string, number>();
  /** Messages whose provider request is open. */
  const sending = new Set<ClaimedMessage>();
  const release = (lane: Lane, notBefore: number) => releaseLane(lane, notBefore, { handBack, settleStopped, bulkPacing });

  const wakeAll = () => {
    for (const lane of lanes.values()) lane.wake?.();
  };

  /**
   * The one provider call of the pass. `startedAt`: when the lane let the send go (for a bulk
   * message, the moment its campaign's slot let it go), stored as the message's `sent_at`; the
   * request leaves once its in-flight mark is stored, a round trip later.
   */
  const send = async (message: ClaimedMessage, lane: Lane, startedAt: number, requestDone: () => void) => {
    const { sender } = lane;
    const channel = channels[sender.channel];
    let outcome: { providerMessageId: string } | { failure: SendFailure };
    sending.add(message);
    try {
      outcome = await channel.send({ id: message.id, to: message.phoneNumber, payload: message.payload, attempts: message.attempts }, sender);
    } catch (error) {
      outcome = { failure: channel.classifyError(error) };
    } finally {
      sending.delete(message);
      // The bound is on provider requests: waiting for the batched result write holds no request open.
      requestDone();
    }
    const now = clock.now();
    if ("providerMessageId" in outcome) {
      await sentWriter.record({ message, providerMessageId: outcome.providerMessageId, sentAt: new Date(startedAt), senderId: sender.id });
      return;
    }
    const { failure } = outcome;
    if (failure.senderPauseMs) {
      // Meta asked the whole number to slow down: every process waits, not just this message.
      lane.slots.drop();
      lane.pausedUntil = Math.max(lane.pausedUntil, now + failure.senderPauseMs);
      await guarded("slowing the sender down", () => limiter.holdUntil(senderLane(sender.id), now + failure.senderPauseMs!));
    }
    if (failure.recipientPauseMs) recipientPausedUntil.set(message.phoneNumber, now + failure.recipientPauseMs);
    if (failure.class === "outcome_unknown") {
      await markOutcomeUnknown(message, failure.reason);
      return;
    }
    if (failure.class !== "retryable" || message.attempts >= maxAttempts) {
      const reason = failure.class === "retryable" ? `${failure.reason} Gave up after ${message.attempts} attempts.` : failure.reason;
      await fail(message, { code: failure.code, reason });
      return;
    }
    await scheduleRetry(message, failure, now + retryDelayMs(message.attempts, failure, random), sender.id);
  };

  /**
   * The request leaves only once the row's in-flight mark is committed; a message that could not be
   * marked (no longer held, owner gone, write failed) or whose pass is stopping goes back unsent. What
   * changed during the mark's round trip is asked again: a sender told to slow down meanwhile (130429)
   * gets the message back in its lane, a campaign that stopped settles it.
   */
  const sendMarked = async (message: ClaimedMessage, lane: Lane, due: number, startedAt: number, requestDone: () => void) => {
    if (!(await marks.mark(message))) return handBack([message], clock.now());
    if (!(await departOnTime(lane, due))) return handBack([message], clock.now());
    await awaitDeparture(lane);
    if (stopping()) return handBack([message], clock.now());
    if (message.source === "bulk" && !bulkPacing.isSending(message.campaignId)) return settleStopped([message], bulkPacing.status(message.campaignId));
    if (lane.pausedUntil > clock.now()) {
      putBack(lane, message);
      if (lane.running) lane.wake?.();
      else startLane(lane);
      return;
    }
    return send(message, lane, startedAt, requestDone);
  };

  /**
   * True once the request may leave: at once when it is within MAX_DEPARTURE_LATENESS_MS of `due`
   * (its slot, or for a bulk message its campaign's slot) or its sender's rate is RESLOT_BELOW_RATE
   * or more, else at a fresh slot of the sender. A mark
   * that came back late (a slow statement, a busy machine) would otherwise let requests of several
   * processes leave together. False: no fresh slot in time, or the pass is stopping.
   */
  const departOnTime = async (lane: Lane, due: number): Promise<boolean> => {
    const perSecond = lane.sender.throughputPerSecond;
    while (perSecond < RESLOT_BELOW_RATE && !stopping() && clock.now() - due > MAX_DEPARTURE_LATENESS_MS) {
      const now = clock.now();
      try {
        due = await lane.slots.take(perSecond, clock.now, laneSize(lane) + 1);
      } catch (error) {
        console.error(`[dispatcher] reserving send slots failed: ${describeError(error)}`);
        return false;
      }
      if (due - now > MAX_RESLOT_WAIT_MS) {
        lane.slots.drop();
        return false;
      }
      while (clock.now() < due && !stopping()) await clock.sleep(due - clock.now());
    }
    return !stopping();
  };

  /** Waits until one more request of the lane may leave (lanes.ts, DepartureWindow), and counts it as left. */
  const awaitDeparture = async (lane: Lane) => {
    const perSecond = lane.sender.throughputPerSecond;
    for (let wait = lane.departures.waitMs(perSecond, clock.now()); wait > 0 && !stopping(); wait = lane.departures.waitMs(perSecond, clock.now())) {
      await clock.sleep(wait);
    }
    lane.departures.record(perSecond, clock.now());
  };

  /** Waits up to `ms`, or less when a trigger message arrives for the lane or the pass is told to stop. */
  const nap = (lane: Lane, ms: number) =>
    new Promise<void>((resolve) => {
      lane.wake = resolve;
      void clock.sleep(ms).then(resolve);
    }).finally(() => (lane.wake = null));

  /**
   * Waits for the sender's slot for `message` and returns its time; slots already too late when taken
   * (a slow reservation, a busy event loop) are dropped and a fresh one taken. Null when the lane gave
   * up (the slot is too far off, or reserving failed): the message and the rest of the lane were handed back.
   */
  const awaitSenderSlot = async (lane: Lane, message: ClaimedMessage): Promise<number | null> => {
    const { sender } = lane;
    while (!stopping()) {
      const now = clock.now();
      let slot: number;
      try {
        slot = await lane.slots.take(sender.throughputPerSecond, clock.now, laneSize(lane) + 1);
      } catch (error) {
        console.error(`[dispatcher] reserving send slots failed: ${describeError(error)}`);
        putBack(lane, message);
        await release(lane, now + 1_000);
        return null;
      }
      const maxWait = Math.min(MAX_SLOT_WAIT_MS, message.lease.getTime() - SEND_BUDGET_MS - now, deadline + DEADLINE_GRACE_MS - now);
      if (slot - now > maxWait) {
        putBack(lane, message);
        lane.slots.drop();
        await release(lane, slot);
        return null;
      }
      while (clock.now() < slot && !stopping()) await nap(lane, slot - clock.now());
      // Woken too late for this slot (a busy event loop): using it would crowd the next second.
      if (clock.now() - slot <= lateSlotToleranceMs(sender.throughputPerSecond)) return slot;
    }
    return clock.now();
  };

  /** Works the lane until it is empty, the pass stops, or its next send is too far off. */
  const runLane = async (lane: Lane) => {
    let ended = false;
    try {
      for (;;) {
        if (stopping()) {
          await release(lane, clock.now());
          break;
        }
        const now = clock.now();
        let message = lane.priority.shift();
        let campaignRate: number | null = null;
        if (!message) {
          const next = await bulkPacing.next(lane, now);
          if (next === null) break;
          if ("waitMs" in next) {
            if (now + next.waitMs > deadline + DEADLINE_GRACE_MS) {
              await release(lane, now + next.waitMs);
              break;
            }
            await nap(lane, next.waitMs);
            continue;
          }
          message = next.message;
          campaignRate = next.campaignRate;
        }
        const pausedUntil = recipientPausedUntil.get(message.phoneNumber) ?? 0;
        if (pausedUntil > clock.now()) {
          await handBack([message], pausedUntil);
          continue;
        }
        // The request's place in the bound is taken before its slot, so the send leaves at the slot
        // (never after a wait for the bound, which would crowd the sender's next second).
        await inFlight.acquire();
        let handedOver = false;
        try {
          const slotAt = await awaitSenderSlot(lane, message);
          if (slotAt === null) break;
          if (lane.pausedUntil > clock.now() && !stopping()) {
            // Meta asked this number to slow down while the message waited for its slot.
            putBack(lane, message);
            await nap(lane, lane.pausedUntil - clock.now());
            continue;
          }
          if (message.source === "bulk" && !bulkPacing.isSending(message.campaignId)) {
            await settleStopped([message], bulkPacing.status(message.campaignId));
            continue;
          }
          if (stopping()) {
            await handBack([message], clock.now());
            continue;
          }
          // A bulk message of a campaign with a rate of its own leaves right after a slot of its
          // campaign's lane, taken now that it holds its sender's slot: what holds every 1-second
          // window of the campaign's `sent_at` to its rate.
          let startedAt: number | null;
          try {
            startedAt =
              campaignRate !== null && message.campaignId !== null && !stopping() ? await bulkPacing.sendMoment(message.campaignId, campaignRate, clock.sleep) : clock.now();
          } catch (error) {
            console.error(`[dispatcher] reserving send slots failed: ${describeError(error)}`);
            putBack(lane, message);
            await release(lane, clock.now() + 1_000);
            break;
          }
          if (startedAt === null) {
            // The campaign's next slot is further off: the lane takes other work until then.
            putBack(lane, message);
            continue;
          }
          if (stopping()) {
            await handBack([message], clock.now());
            continue;
          }
          const current = message;
          let released = false;
          const requestDone = () => {
            if (released) return;
            released = true;
            inFlight.release();
          };
          handedOver = true;
          // Due at its sender slot, or a bulk message with a campaign lane at that lane's slot.
          const due = campaignRate !== null ? startedAt : slotAt;
          track(sendMarked(current, lane, due, startedAt, requestDone).finally(requestDone));
        } finally {
          if (!handedOver) inFlight.release();
        }
      }
      ended = true;
    } finally {
      lane.running = null;
      // A batch routed here while the lane was deciding to stop (between its last look and now, at
      // an await) found it running and started nothing: run again, or it stays claimed and unsent.
      if (ended && laneSize(lane) > 0) startLane(lane);
    }
  };

  const startLane = (lane: Lane) => {
    lane.running = runLane(lane);
    track(lane.running);
  };

  return {
    lanes,
    /** Messages whose provider request is open (shutdown marks those still open as outcome unknown). */
    sending,
    wakeAll,
    /** Puts a routed message in its sender's lane and starts the lane if it is idle. */
    enqueue(message: ClaimedMessage, sender: ChannelSender) {
      let lane = lanes.get(sender.id);
      if (!lane) lanes.set(sender.id, (lane = createLane(sender, limiter)));
      addToLane(lane, message);
      if (!lane.running) startLane(lane);
    },
    /** Claimed messages waiting in the lanes (not yet taken for a send). */
    queued: () => [...lanes.values()].reduce((n, lane) => n + laneSize(lane), 0),
    /** Messages of a campaign held in the lanes. */
    heldBulk(campaignId: string) {
      let count = 0;
      for (const lane of lanes.values()) count += lane.bulk.get(campaignId)?.length ?? 0;
      return count;
    },
    /** Campaigns whose messages the lanes hold. */
    heldCampaignIds: () => [...new Set([...lanes.values()].flatMap((lane) => [...lane.bulk.keys()]))],
    /** Workspaces whose sender already holds a second of trigger work: not claimed for now. */
    saturatedWorkspaces: () =>
      [...lanes.values()]
        .filter((lane) => (lane.priority.length * 1000) / Math.max(1, lane.sender.throughputPerSecond) > SATURATED_BACKLOG_MS)
        .map((lane) => lane.sender.workspaceId),
    /** The throughput of a workspace's sender with a lane in this pass. */
    /** The rate of a campaign's sender's lane; one of its workspace's lanes when that sender has none yet. */
    senderRate: (campaign: { workspaceId: string; senderId: string | null }) =>
      (campaign.senderId ? lanes.get(campaign.senderId) : undefined)?.sender.throughputPerSecond ??
      [...lanes.values()].find((lane) => lane.sender.workspaceId === campaign.workspaceId)?.sender.throughputPerSecond,
  };
}
