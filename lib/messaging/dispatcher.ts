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
import { defaultChannels, SANDBOX_MESSAGE_ID_PREFIX } from "@/lib/channels";
import { describeError } from "@/lib/logging";
import { CAMPAIGN_REFRESH_MS, createBulkPacing } from "./bulk-pacing";
import { createClaimRouter } from "./claim-and-route";
import type { ClaimedMessage } from "./claims";
import { MAX_SEND_ATTEMPTS } from "./errors";
import { createInFlightMarks } from "./in-flight";
import { applyInboxedStatuses } from "@/lib/outbox/status-inbox";
import { createLaneRunner, type LaneRunner } from "./lane-runner";
import { semaphore } from "./lanes";
import { createOutcomeWrites, guarded, writeKeptHandBacks } from "./outcomes";
import { claimOwnerFor } from "./owner";
import { createSentWriter, writeUnrecordedSends, type SentRecord } from "./results";
import { settleStoppedPass, watchShutdown } from "./shutdown";
import { createSharedThroughputLimiter } from "./throughput";

import { DEFAULT_LEASE_MS, OUTCOME_GRACE_MS, systemClock, type DispatchDeps, type DispatchOptions, type DispatchSummary } from "./dispatch-contract";
export type { ClaimedMessage } from "./claims";

export { ABORT_GRACE_MS, DEFAULT_LEASE_MS, OUTCOME_GRACE_MS, systemClock } from "./dispatch-contract";
export type { Clock, DispatchDeps, DispatchOptions, DispatchSummary } from "./dispatch-contract";
export { SENDER_CHANGED_CODE, SENDER_CHANGED_REASON } from "./claim-and-route";

const IDLE_POLL_MS = 200;

/**
 * One dispatch pass: drains due messages until none are left, the deadline passes or `signal` aborts.
 * It wires the pieces: claim-and-route (claim-and-route.ts) feeds the lanes (lane-runner.ts), beside
 * the start-of-pass work (held statuses, and what the composition root hands in: housekeeping,
 * simulated deliveries); shutdown.ts settles a pass told to stop.
 */
export async function runDispatch(deps: DispatchDeps, options: DispatchOptions = {}): Promise<DispatchSummary> {
  const db = deps.db;
  const clock = deps.clock ?? systemClock;
  const limiter = deps.limiter ?? createSharedThroughputLimiter(db);
  const batchSize = options.batchSize ?? 500;
  const maxPending = Math.max(batchSize, options.maxPending ?? 5_000);
  const limit = options.limit ?? Infinity;
  const started = clock.now();
  const deadline = started + (options.deadlineMs ?? 10_000);
  const inFlight = semaphore(options.maxInFlight ?? 256);
  const summary: DispatchSummary = { claimed: 0, sent: 0, retrying: 0, failed: 0, deferred: 0, skipped: 0, unknown: 0, simulated: 0, durationMs: 0 };
  const tasks = new Set<Promise<void>>();
  const track = (task: Promise<void>) => {
    tasks.add(task);
    void task.finally(() => tasks.delete(task));
  };
  // Set below, once the owner's lock is held; woken on shutdown.
  let lanes: LaneRunner | null = null;
  const shutdown = watchShutdown(options.signal, () => lanes?.wakeAll());
  const { stopping } = shutdown;

  // Statuses that arrived before their message's provider id was stored are applied right after each recorded batch.
  // The embedded database (one connection) stalls when that transaction overlaps the pass's other
  // statements, so there they are applied once the pass has finished.
  const deferStatuses = isEmbedded();
  const writtenProviderMessageIds: string[] = [];
  const applyStatusesFor = (records: SentRecord[]) => {
    const providerMessageIds = records.map((r) => r.providerMessageId).filter((id) => !id.startsWith(SANDBOX_MESSAGE_ID_PREFIX));
    if (providerMessageIds.length === 0) return;
    if (deferStatuses) writtenProviderMessageIds.push(...providerMessageIds);
    else void guarded("applying held statuses", () => applyInboxedStatuses(db, { providerMessageIds, now: new Date(clock.now()) }));
  };
  const sentWriter = createSentWriter(db, {
    onWritten: (records) => {
      summary.sent += records.length;
      applyStatusesFor(records);
    },
    sleep: (ms) => clock.sleep(ms),
  });
  const outcomes = createOutcomeWrites(db, { now: clock.now, outcomeGraceMs: options.outcomeGraceMs ?? OUTCOME_GRACE_MS, counts: summary });

  // Sends an earlier pass could not record are recorded before anything is claimed (their leases
  // must not run out and send them twice).
  await guarded("recording earlier unrecorded sends", () => writeUnrecordedSends(db));
  // Likewise messages an earlier pass could not hand back: their in-flight marks must go before a claim reads them.
  await guarded("handing back messages kept from failed writes", () => writeKeptHandBacks(db, clock.now()));
  const owner = deps.owner ?? claimOwnerFor(db);
  let ownerId: number;
  try {
    ownerId = await owner.ensure();
  } catch (error) {
    console.error(`[dispatcher] taking the claim owner lock failed; nothing is claimed: ${describeError(error)}`);
    shutdown.detach();
    summary.durationMs = clock.now() - started;
    return summary;
  }
  const marks = createInFlightMarks(db, {
    ownerId,
    now: clock.now,
    onOwnerLost: () => {
      if (shutdown.ownerLost()) owner.lost(ownerId);
    },
    onOwnerConfirmed: () => owner.confirmed(ownerId),
  });
  const bulkPacing = createBulkPacing({ db, limiter, now: clock.now, settleStopped: outcomes.settleStopped, onlyWorkspaceIds: options.workspaceIds });
  const runner = createLaneRunner({
    clock,
    deadline,
    channels: deps.channels ?? defaultChannels(),
    limiter,
    random: deps.random ?? Math.random,
    maxAttempts: options.maxAttempts ?? MAX_SEND_ATTEMPTS,
    inFlight,
    marks,
    bulkPacing,
    outcomes,
    sentWriter,
    stopping,
    track,
  });
  lanes = runner;
  const router = createClaimRouter({
    db,
    clock,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    ownerId,
    onlyWorkspaceIds: options.workspaceIds,
    renderClaimed: deps.renderClaimed,
    bulkPacing,
    lanes: runner,
    sentWriter,
    fail: outcomes.fail,
    track,
  });

  // The rest of the start-of-pass work runs beside the claims: on a large sandbox workspace
  // advancing deliveries alone took over a second, and a trigger message must not wait for it.
  // The pass ends only after it (a campaign housekeeping starts is claimed in the same pass).
  let startWorkDone = false;
  const startWork = Promise.all([
    deps.housekeeping && guarded("housekeeping", () => deps.housekeeping!(db, new Date(clock.now()))),
    guarded("applying held statuses", () => applyInboxedStatuses(db, { now: new Date(clock.now()) })),
    deps.simulateDeliveries &&
      guarded("advancing simulated deliveries", async () => {
        summary.simulated += await deps.simulateDeliveries!(db, new Date(clock.now()));
      }),
  ]).finally(() => {
    startWorkDone = true;
  });

  while (!stopping() && clock.now() < deadline && summary.claimed < limit) {
    const pending = runner.queued() + inFlight.inUse;
    if (pending >= maxPending) {
      await clock.sleep(10);
      continue;
    }
    const now = clock.now();
    let claimed: ClaimedMessage[];
    try {
      await router.refreshCampaigns();
      claimed = await router.claimBatch(now, Math.min(batchSize, maxPending - pending, limit - summary.claimed));
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
      await router.resolveSenders(claimed);
    } catch (error) {
      console.error(`[dispatcher] loading senders failed: ${describeError(error)}`);
      await outcomes.handBack(claimed, clock.now());
      break;
    }
    for (const message of claimed) router.route(message);
  }

  await startWork;
  // Lanes drain what they hold (bulk campaigns keep being checked for pause and cancel).
  while (tasks.size > 0 && !stopping()) {
    const pause = clock.sleep(CAMPAIGN_REFRESH_MS).then(() => "tick" as const);
    const done = Promise.allSettled([...tasks]).then(() => "done" as const);
    if ((await Promise.race([pause, done])) === "done") continue;
    if ([...runner.lanes.values()].some((lane) => lane.bulk.size > 0)) await guarded("reading campaign statuses", router.refreshCampaigns);
  }
  if (stopping()) {
    await settleStoppedPass({ shutdown, wakeAll: runner.wakeAll, tasks, sending: runner.sending, clock, markOutcomeUnknown: outcomes.markOutcomeUnknown });
  }
  if (writtenProviderMessageIds.length > 0) await guarded("applying held statuses", () => applyInboxedStatuses(db, { providerMessageIds: writtenProviderMessageIds, now: new Date(clock.now()) }));
  shutdown.detach();
  summary.durationMs = clock.now() - started;
  return summary;
}
