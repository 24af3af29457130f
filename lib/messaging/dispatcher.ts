// The dispatcher: claims due messages, sends each through the sender it was queued for at that
// sender's throughput (shared by all processes through Postgres), and records the outcome. Safe
// with any number of instances: claims take rows FOR UPDATE SKIP LOCKED and lease them
// (`locked_until`) under the process's claim owner (owner.ts); every later write is fenced on that
// lease, so a row another instance took over (lease expired, or owner gone) is never overwritten.
// A request leaves only after its row is marked in flight (in-flight.ts): a row taken over with that
// mark may have reached Meta and is settled as outcome unknown, never sent twice.
//
// Per sender, trigger and test messages go first; bulk messages are held at most about a second
// ahead, only while their campaign is `sending`, and paced at the campaign's send rate.
import { isEmbedded } from "@/db";
import { runBulkHousekeeping } from "@/lib/bulk/housekeeping";
import { describeError } from "@/lib/logging";
import { SENDER_CHANGED_CODE } from "@/lib/senders/service";
import { CAMPAIGN_REFRESH_MS, createBulkPacing } from "./bulk-pacing";
import { claimBulkMessages, claimPriorityMessages, loadCurrentSenders, loadSendersById, type ClaimedMessage } from "./claims";
import { classifySendError, INTERRUPTED_SEND_REASON, MAX_SEND_ATTEMPTS, OUTCOME_UNKNOWN_CODE, OUTCOME_UNKNOWN_REASON, retryDelayMs, type SendFailure } from "./errors";
import { createInFlightMarks } from "./in-flight";
import { applyInboxedStatuses } from "./inbox";
import { addToLane, createLane, laneSize, putBack, semaphore, type Lane } from "./lanes";
import { createOutcomeWrites, guarded } from "./outcomes";
import { claimOwnerFor } from "./owner";
import { defaultProviders, type SenderForSend } from "./providers";
import { advanceSandboxDeliveries, SANDBOX_WAMID_PREFIX } from "./providers/sandbox";
import { createSentWriter, unrecordedWamid, writeUnrecordedSends, type SentRecord } from "./results";
import { createSharedThroughputLimiter, lateSlotToleranceMs, senderLane } from "./throughput";

import { ABORT_GRACE_MS, DEFAULT_LEASE_MS, OUTCOME_GRACE_MS, systemClock, type DispatchDeps, type DispatchOptions, type DispatchSummary } from "./dispatch-contract";
export type { ClaimedMessage } from "./claims";

export { ABORT_GRACE_MS, DEFAULT_LEASE_MS, OUTCOME_GRACE_MS, systemClock } from "./dispatch-contract";
export type { Clock, DispatchDeps, DispatchOptions, DispatchSummary } from "./dispatch-contract";

/** Time kept free at the end of a lease for the provider request and the result write. */
const SEND_BUDGET_MS = 15_000;
/** A sender is not claimed for while it already has this much held work. */
const SATURATED_BACKLOG_MS = 1_000;
/** A sender's slot is waited for at most this long; later ones are handed back to the queue. */
const MAX_SLOT_WAIT_MS = 20_000;
const IDLE_POLL_MS = 200;
/** Claimed messages may still wait for their slot this long after the deadline (then handed back). */
const DEADLINE_GRACE_MS = 5_000;

export { SENDER_CHANGED_CODE };
export const SENDER_CHANGED_REASON =
  "The sender this message was queued for was replaced (its provider or phone number changed), so it was not sent. Resend it from the logs.";

/** One dispatch pass: drains due messages until none are left, the deadline passes or `signal` aborts. */
export async function runDispatch(deps: DispatchDeps, options: DispatchOptions = {}): Promise<DispatchSummary> {
  const db = deps.db;
  const clock = deps.clock ?? systemClock;
  const providers = deps.providers ?? defaultProviders();
  const limiter = deps.limiter ?? createSharedThroughputLimiter(db);
  const random = deps.random ?? Math.random;
  const batchSize = options.batchSize ?? 500;
  const maxPending = Math.max(batchSize, options.maxPending ?? 5_000);
  const limit = options.limit ?? Infinity;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const maxAttempts = options.maxAttempts ?? MAX_SEND_ATTEMPTS;
  const outcomeGraceMs = options.outcomeGraceMs ?? OUTCOME_GRACE_MS;
  const signal = options.signal;
  const started = clock.now();
  const deadline = started + (options.deadlineMs ?? 10_000);
  const inFlight = semaphore(options.maxInFlight ?? 128);
  const summary: DispatchSummary = { claimed: 0, sent: 0, retrying: 0, failed: 0, deferred: 0, skipped: 0, unknown: 0, simulated: 0, durationMs: 0 };
  const lanes = new Map<string, Lane>();
  const senderById = new Map<string, SenderForSend | null>();
  const currentSender = new Map<string, SenderForSend | null>();
  const recipientPausedUntil = new Map<string, number>();
  const sending = new Set<ClaimedMessage>();
  const tasks = new Set<Promise<void>>();
  /** Claimed messages waiting in the lanes (not yet taken for a send). */
  const queued = () => [...lanes.values()].reduce((n, lane) => n + laneSize(lane), 0);

  /** Set when the claim owner's lock was found free: others may be taking this pass's claims over. */
  let ownerGone = false;
  const stopping = () => signal?.aborted === true || ownerGone;
  const wakeAll = () => {
    for (const lane of lanes.values()) lane.wake?.();
  };
  signal?.addEventListener("abort", wakeAll, { once: true });

  const track = (task: Promise<void>) => {
    tasks.add(task);
    void task.finally(() => tasks.delete(task));
  };

  // Statuses that arrived before their wamid was stored are applied right after each recorded batch.
  // The embedded database (one connection) stalls when that transaction overlaps the pass's other
  // statements, so there they are applied once the pass has finished.
  const deferStatuses = isEmbedded();
  const writtenWamids: string[] = [];
  const applyStatusesFor = (records: SentRecord[]) => {
    const wamids = records.map((r) => r.wamid).filter((w) => !w.startsWith(SANDBOX_WAMID_PREFIX));
    if (wamids.length === 0) return;
    if (deferStatuses) writtenWamids.push(...wamids);
    else void guarded("applying held statuses", () => applyInboxedStatuses(db, { wamids, now: new Date(clock.now()) }));
  };
  const sentWriter = createSentWriter(db, {
    onWritten: (records) => {
      summary.sent += records.length;
      applyStatusesFor(records);
    },
    sleep: (ms) => clock.sleep(ms),
  });

  const { fail, markOutcomeUnknown, handBack, settleStopped, scheduleRetry } = createOutcomeWrites(db, { now: clock.now, outcomeGraceMs, counts: summary });

  // Sends an earlier pass could not record are recorded before anything is claimed (their leases
  // must not run out and send them twice).
  await guarded("recording earlier unrecorded sends", () => writeUnrecordedSends(db));
  const owner = deps.owner ?? claimOwnerFor(db);
  let ownerId: number;
  try {
    ownerId = await owner.ensure();
  } catch (error) {
    console.error(`[dispatcher] taking the claim owner lock failed; nothing is claimed: ${describeError(error)}`);
    signal?.removeEventListener("abort", wakeAll);
    summary.durationMs = clock.now() - started;
    return summary;
  }
  const marks = createInFlightMarks(db, {
    ownerId,
    now: clock.now,
    onOwnerLost: () => {
      if (ownerGone) return;
      ownerGone = true;
      owner.lost(ownerId);
      wakeAll();
    },
    onOwnerConfirmed: () => owner.confirmed(ownerId),
  });
  const bulkPacing = createBulkPacing({ db, limiter, now: clock.now, settleStopped, onlyWorkspaceIds: options.workspaceIds });

  /**
   * `startedAt`: when the lane let the send go (for a bulk message, the moment its campaign's slot let
   * it go), stored as the message's `sent_at`; the request leaves once its in-flight mark is stored, a
   * round trip later.
   */
  const send = async (message: ClaimedMessage, lane: Lane, startedAt: number) => {
    const { sender } = lane;
    let outcome: { wamid: string } | { failure: SendFailure };
    sending.add(message);
    try {
      outcome = await providers[sender.provider].send(message, sender);
    } catch (error) {
      outcome = { failure: classifySendError(error) };
    } finally {
      sending.delete(message);
    }
    const now = clock.now();
    if ("wamid" in outcome) {
      await sentWriter.record({ message, wamid: outcome.wamid, sentAt: new Date(startedAt), senderId: sender.id });
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
    if (failure.outcomeUnknown) {
      await markOutcomeUnknown(message, failure.reason);
      return;
    }
    if (!failure.retryable || message.attempts >= maxAttempts) {
      const reason = failure.retryable ? `${failure.reason} Gave up after ${message.attempts} attempts.` : failure.reason;
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
  const sendMarked = async (message: ClaimedMessage, lane: Lane, startedAt: number) => {
    if (!(await marks.mark(message)) || stopping()) return handBack([message], clock.now());
    if (message.source === "bulk" && !bulkPacing.isSending(message.campaignId)) return settleStopped([message], bulkPacing.status(message.campaignId));
    if (lane.pausedUntil > clock.now()) {
      putBack(lane, message);
      if (lane.running) lane.wake?.();
      else startLane(lane);
      return;
    }
    return send(message, lane, startedAt);
  };

  /** Empties the lane: everything still held goes back to the queue (or is skipped, for a cancelled campaign). */
  const releaseLane = async (lane: Lane, notBefore: number) => {
    const priority = lane.priority.splice(0);
    const bulk = [...lane.bulk.entries()];
    lane.bulk.clear();
    await handBack(priority, notBefore);
    for (const [campaignId, queue] of bulk) {
      bulkPacing.forget(campaignId);
      const status = bulkPacing.status(campaignId);
      await (status === "cancelled" ? settleStopped(queue, status) : handBack(queue, notBefore));
    }
  };

  /** Waits up to `ms`, or less when a trigger message arrives for the lane or the pass is told to stop. */
  const nap = (lane: Lane, ms: number) =>
    new Promise<void>((resolve) => {
      lane.wake = resolve;
      void clock.sleep(ms).then(resolve);
    }).finally(() => (lane.wake = null));

  const runLane = async (lane: Lane) => {
    const { sender } = lane;
    let ended = false;
    try {
      for (;;) {
        if (stopping()) {
          await releaseLane(lane, clock.now());
          break;
        }
        let now = clock.now();
        let message = lane.priority.shift();
        let campaignRate: number | null = null;
        if (!message) {
          const next = await bulkPacing.next(lane, now);
          if (next === null) break;
          if ("waitMs" in next) {
            if (now + next.waitMs > deadline + DEADLINE_GRACE_MS) {
              await releaseLane(lane, now + next.waitMs);
              break;
            }
            await nap(lane, next.waitMs);
            continue;
          }
          message = next.message;
          campaignRate = next.rate;
        }
        now = clock.now();
        const pausedUntil = recipientPausedUntil.get(message.phoneNumber) ?? 0;
        if (pausedUntil > now) {
          await handBack([message], pausedUntil);
          continue;
        }
        // The sender's slot; slots that are already too late when taken (a slow reservation) are
        // dropped and a fresh one taken.
        let slot = -Infinity;
        let gaveUp = false;
        while (!stopping()) {
          now = clock.now();
          try {
            slot = await lane.slots.take(sender.throughputPerSecond, clock.now, laneSize(lane) + 1);
          } catch (error) {
            console.error(`[dispatcher] reserving send slots failed: ${describeError(error)}`);
            putBack(lane, message);
            await releaseLane(lane, now + 1_000);
            gaveUp = true;
            break;
          }
          const maxWait = Math.min(MAX_SLOT_WAIT_MS, message.lease.getTime() - SEND_BUDGET_MS - now, deadline + DEADLINE_GRACE_MS - now);
          if (slot - now > maxWait) {
            putBack(lane, message);
            lane.slots.drop();
            await releaseLane(lane, slot);
            gaveUp = true;
            break;
          }
          while (clock.now() < slot && !stopping()) await nap(lane, slot - clock.now());
          // Woken too late for this slot (a busy event loop): using it would crowd the next second.
          if (clock.now() - slot <= lateSlotToleranceMs(sender.throughputPerSecond)) break;
        }
        if (gaveUp) break;
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
        await inFlight.acquire();
        // A bulk message leaves right after a slot of its campaign's lane, taken now that it holds its
        // sender's slot: what holds every 1-second window of the campaign's `sent_at` to its rate.
        let startedAt: number | null;
        try {
          startedAt = campaignRate !== null && !stopping() ? await bulkPacing.sendMoment(message.campaignId, campaignRate, clock.sleep) : clock.now();
        } catch (error) {
          console.error(`[dispatcher] reserving send slots failed: ${describeError(error)}`);
          inFlight.release();
          putBack(lane, message);
          await releaseLane(lane, clock.now() + 1_000);
          break;
        }
        if (startedAt === null) {
          // The campaign's next slot is further off: the lane takes other work until then.
          inFlight.release();
          putBack(lane, message);
          continue;
        }
        if (stopping()) {
          inFlight.release();
          await handBack([message], clock.now());
          continue;
        }
        const current = message;
        track(sendMarked(current, lane, startedAt).finally(() => inFlight.release()));
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

  const enqueue = (message: ClaimedMessage, sender: SenderForSend) => {
    let lane = lanes.get(sender.id);
    if (!lane) lanes.set(sender.id, (lane = createLane(sender, limiter)));
    addToLane(lane, message);
    if (!lane.running) startLane(lane);
  };

  const heldBulk = (campaignId: string) => {
    let count = 0;
    for (const lane of lanes.values()) count += lane.bulk.get(campaignId)?.length ?? 0;
    return count;
  };

  const saturatedWorkspaces = () =>
    [...lanes.values()]
      .filter((lane) => (lane.priority.length * 1000) / Math.max(1, lane.sender.throughputPerSecond) > SATURATED_BACKLOG_MS)
      .map((lane) => lane.sender.workspaceId);

  /** Resolves each claimed message's sender (the one it was queued for). */
  const resolveSenders = async (claimed: ClaimedMessage[]) => {
    const ids = [...new Set(claimed.map((m) => m.senderId).filter((id): id is string => id !== null && !senderById.has(id)))];
    const legacy = [...new Set(claimed.filter((m) => m.senderId === null).map((m) => m.workspaceId))].filter((id) => !currentSender.has(id));
    const [byId, current] = await Promise.all([loadSendersById(db, ids), loadCurrentSenders(db, legacy)]);
    for (const id of ids) senderById.set(id, byId.get(id) ?? null);
    for (const id of legacy) currentSender.set(id, current.get(id) ?? null);
  };

  const route = (message: ClaimedMessage) => {
    const sender = message.senderId === null ? currentSender.get(message.workspaceId) : senderById.get(message.senderId);
    const wamid = message.wamid ?? unrecordedWamid(message.id);
    if (wamid) {
      // Sent by an earlier attempt whose result was not recorded: record it, never send again.
      track(sentWriter.record({ message, wamid, sentAt: new Date(clock.now()), senderId: sender?.id ?? message.senderId ?? "" }));
    } else if (message.inFlightAt !== null || message.errorCode === OUTCOME_UNKNOWN_CODE) {
      // An earlier attempt's request may have reached Meta: the grace after an unknown outcome is
      // over, or the process sending it died (or its lease ran out) with the request open. Never
      // sent again; the attempt was counted when it was made.
      const reason = message.errorCode === OUTCOME_UNKNOWN_CODE ? OUTCOME_UNKNOWN_REASON : INTERRUPTED_SEND_REASON;
      track(fail(message, { code: OUTCOME_UNKNOWN_CODE, reason }));
    } else if (!sender) {
      track(
        message.senderId === null
          ? fail(message, { code: "no_sender", reason: "The workspace has no sender configured." }, { uncount: true })
          : fail(message, { code: SENDER_CHANGED_CODE, reason: SENDER_CHANGED_REASON }, { uncount: true }),
      );
    } else {
      enqueue(message, sender);
    }
  };

  const refreshCampaigns = async () => {
    const alsoIds = [...new Set([...lanes.values()].flatMap((lane) => [...lane.bulk.keys()]))];
    if (await bulkPacing.refresh(alsoIds)) wakeAll(); // lanes re-check paused and cancelled campaigns at once
  };

  const claimBatch = async (now: number, room: number): Promise<ClaimedMessage[]> => {
    const lease = new Date(now + leaseMs);
    const claimed = await claimPriorityMessages(db, {
      now: new Date(now),
      lease,
      owner: ownerId,
      count: room,
      excludeWorkspaceIds: saturatedWorkspaces(),
      onlyWorkspaceIds: options.workspaceIds,
    });
    let left = room - claimed.length;
    // The campaign's sender's lane; one of its workspace's lanes when that sender has none yet.
    const senderRate = (campaign: { workspaceId: string; senderId: string | null }) =>
      (campaign.senderId ? lanes.get(campaign.senderId) : undefined)?.sender.throughputPerSecond ??
      [...lanes.values()].find((l) => l.sender.workspaceId === campaign.workspaceId)?.sender.throughputPerSecond;
    for (const want of bulkPacing.claimWants(heldBulk, senderRate)) {
      if (left <= 0) break;
      const rows = await claimBulkMessages(db, { campaignId: want.campaignId, now: new Date(now), lease, owner: ownerId, count: Math.min(left, want.count) });
      claimed.push(...rows);
      left -= rows.length;
    }
    return claimed;
  };

  // The rest of the start-of-pass work runs beside the claims: on a large sandbox workspace
  // advancing deliveries alone took over a second, and a trigger message must not wait for it.
  // The pass ends only after it (a campaign it starts is claimed in the same pass).
  let startWorkDone = false;
  const startWork = Promise.all([
    guarded("bulk housekeeping", () => runBulkHousekeeping(db, new Date(clock.now()))),
    guarded("applying held statuses", () => applyInboxedStatuses(db, { now: new Date(clock.now()) })),
    guarded("advancing sandbox deliveries", async () => {
      summary.simulated += await advanceSandboxDeliveries(db, new Date(clock.now()));
    }),
  ]).finally(() => {
    startWorkDone = true;
  });

  while (!stopping() && clock.now() < deadline && summary.claimed < limit) {
    const pending = queued() + inFlight.inUse;
    if (pending >= maxPending) {
      await clock.sleep(10);
      continue;
    }
    const now = clock.now();
    let claimed: ClaimedMessage[];
    try {
      await refreshCampaigns();
      claimed = await claimBatch(now, Math.min(batchSize, maxPending - pending, limit - summary.claimed));
    } catch (error) {
      console.error(`[dispatcher] claiming due messages failed: ${describeError(error)}`);
      break;
    }
    if (claimed.length === 0) {
      if (pending === 0 && tasks.size === 0) {
        if (startWorkDone) break;
        await Promise.race([startWork, clock.sleep(IDLE_POLL_MS)]);
        continue;
      }
      await clock.sleep(Math.min(IDLE_POLL_MS, CAMPAIGN_REFRESH_MS));
      continue;
    }
    summary.claimed += claimed.length;
    try {
      await resolveSenders(claimed);
    } catch (error) {
      console.error(`[dispatcher] loading senders failed: ${describeError(error)}`);
      await handBack(claimed, clock.now());
      break;
    }
    for (const message of claimed) route(message);
  }

  await startWork;
  // Lanes drain what they hold (bulk campaigns keep being checked for pause and cancel).
  while (tasks.size > 0 && !stopping()) {
    const pause = clock.sleep(CAMPAIGN_REFRESH_MS).then(() => "tick" as const);
    const done = Promise.allSettled([...tasks]).then(() => "done" as const);
    if ((await Promise.race([pause, done])) === "done") continue;
    if ([...lanes.values()].some((lane) => lane.bulk.size > 0)) await guarded("reading campaign statuses", refreshCampaigns);
  }
  if (stopping()) {
    wakeAll();
    const abortedAt = clock.now();
    while (tasks.size > 0 && clock.now() - abortedAt < ABORT_GRACE_MS) {
      await Promise.race([Promise.allSettled([...tasks]), clock.sleep(50)]);
    }
    // Requests still open may reach Meta: never send them again (the process is about to exit, or
    // others are taking its claims over).
    const reason = ownerGone
      ? "The dispatcher lost its claim on this message while the request to WhatsApp was open; the message may have been delivered."
      : "The server shut down while the request to WhatsApp was open; the message may have been delivered.";
    for (const message of [...sending]) await markOutcomeUnknown(message, reason);
  }
  if (writtenWamids.length > 0) await guarded("applying held statuses", () => applyInboxedStatuses(db, { wamids: writtenWamids, now: new Date(clock.now()) }));
  signal?.removeEventListener("abort", wakeAll);
  summary.durationMs = clock.now() - started;
  return summary;
}
