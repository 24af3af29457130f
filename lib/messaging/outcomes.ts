// The writes that settle a claimed message other than a recorded send: failed, outcome unknown,
// handed back unsent, skipped (cancelled campaign) or queued again for a retry. Each is fenced on the
// claim's lease, so a row another pass reclaimed after the lease expired is never overwritten, and
// each is guarded: a failed write only logs, and the lease then hands the message to a later pass.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { messages } from "@/db/schema";
import { describeError } from "@/lib/logging";
import type { ClaimedMessage } from "./claims";
import { CANCELLED_CODE, CANCELLED_REASON, OUTCOME_UNKNOWN_CODE, type SendFailure } from "./errors";

/** The counters these writes add to (part of the pass's summary). */
export interface OutcomeCounts {
  retrying: number;
  failed: number;
  deferred: number;
  skipped: number;
  unknown: number;
}

interface HandBack {
  id: string;
  lease: Date;
  notBefore: number;
}

/** Hand-backs whose write failed, per process (Next.js may load this module more than once). */
function keptHandBacks(): Map<string, HandBack> {
  const global = globalThis as { __sendstreamKeptHandBacks?: Map<string, HandBack> };
  global.__sendstreamKeptHandBacks ??= new Map();
  return global.__sendstreamKeptHandBacks;
}

/** Queues rows again unsent (attempt not counted, in-flight mark cleared), fenced on the lease they were claimed under. */
async function writeHandBacks(db: Executor, items: HandBack[], at: number): Promise<void> {
  const byLease = new Map<string, HandBack[]>();
  for (const item of items) byLease.set(`${item.lease.getTime()}:${item.notBefore}`, [...(byLease.get(`${item.lease.getTime()}:${item.notBefore}`) ?? []), item]);
  for (const group of byLease.values()) {
    const { lease, notBefore } = group[0]!;
    await db
      .update(messages)
      .set({ status: "queued", attempts: sql`${messages.attempts} - 1`, nextAttemptAt: new Date(notBefore), lockedUntil: null, inFlightAt: null, updatedAt: new Date(at) })
      .where(and(inArray(messages.id, group.map((item) => item.id)), eq(messages.status, "sending"), eq(messages.lockedUntil, lease)));
  }
}

/**
 * Writes hand-backs kept from failed writes (a database restart mid-pass). Called before the
 * process claims again; a row another process took over since has another lease and is left alone.
 */
export async function writeKeptHandBacks(db: Executor, now: number = Date.now()): Promise<number> {
  const kept = keptHandBacks();
  if (kept.size === 0) return 0;
  const items = [...kept.values()];
  await writeHandBacks(db, items, now);
  for (const item of items) kept.delete(item.id);
  return items.length;
}

/** Runs `work`; a failure is logged and swallowed (the lease expires and another pass picks the message up). */
export async function guarded(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`[dispatcher] ${what} failed: ${describeError(error)}`);
  }
}

/** The row as this pass claimed it: still `sending` under the same lease. */
export function held(message: ClaimedMessage) {
  return and(eq(messages.id, message.id), eq(messages.status, "sending"), eq(messages.lockedUntil, message.lease));
}

export function createOutcomeWrites(db: Executor, options: { now: () => number; outcomeGraceMs: number; counts: OutcomeCounts }) {
  const { now, outcomeGraceMs, counts } = options;

  const fail = (message: ClaimedMessage, failure: Pick<SendFailure, "code" | "reason">, opts: { uncount?: boolean } = {}) =>
    guarded(`recording failure of ${message.id}`, async () => {
      const at = new Date(now());
      await db
        .update(messages)
        .set({
          status: "failed",
          failedAt: at,
          errorCode: failure.code,
          errorReason: failure.reason,
          lockedUntil: null,
          updatedAt: at,
          ...(opts.uncount ? { attempts: sql`${messages.attempts} - 1` } : {}),
        })
        .where(held(message));
      counts.failed++;
    });

  /**
   * Keeps the row `sending` (never claimed again before the grace ends) with the reason. It leaves
   * its owner (the grace, not the process's life, decides when it fails).
   */
  const markOutcomeUnknown = (message: ClaimedMessage, reason: string) =>
    guarded(`recording the unknown outcome of ${message.id}`, async () => {
      const at = now();
      const lease = new Date(at + outcomeGraceMs);
      await db
        .update(messages)
        .set({ lockedUntil: lease, claimOwner: null, errorCode: OUTCOME_UNKNOWN_CODE, errorReason: reason, updatedAt: new Date(at) })
        .where(held(message));
      message.lease = lease;
      counts.unknown++;
    });

  /** Hands claimed messages back unsent (an in-flight mark whose request never left is cleared): the attempt is not counted. */
  const handBack = async (items: ClaimedMessage[], notBefore: number) => {
    if (items.length === 0) return;
    try {
      await writeHandBacks(db, items.map((item) => ({ id: item.id, lease: item.lease, notBefore })), now());
      counts.deferred += items.length;
    } catch (error) {
      // Their requests never left, but the rows may carry an in-flight mark: kept, and handed back
      // before the process's next claim, or they would be taken for sends of unknown outcome.
      for (const item of items) keptHandBacks().set(item.id, { id: item.id, lease: item.lease, notBefore });
      console.error(`[dispatcher] handing messages back failed; kept to hand back before the next claim: ${describeError(error)}`);
    }
  };

  /** Held messages of a campaign that stopped sending: paused → back to the queue; cancelled → skipped. */
  const settleStopped = async (items: ClaimedMessage[], status: string | undefined) => {
    if (items.length === 0) return;
    if (status !== "cancelled") return handBack(items, now());
    await guarded("skipping messages of a cancelled campaign", async () => {
      const at = new Date(now());
      for (const item of items) {
        await db
          .update(messages)
          .set({ status: "skipped", errorCode: CANCELLED_CODE, errorReason: CANCELLED_REASON, attempts: sql`${messages.attempts} - 1`, lockedUntil: null, updatedAt: at })
          .where(held(item));
      }
      counts.skipped += items.length;
    });
  };

  /** Queues the message again after a retryable failure, on the sender it was tried with. */
  const scheduleRetry = (message: ClaimedMessage, failure: SendFailure, retryAt: number, senderId: string) =>
    guarded(`scheduling retry of ${message.id}`, async () => {
      const at = new Date(now());
      await db
        .update(messages)
        .set({ status: "queued", nextAttemptAt: new Date(retryAt), errorCode: failure.code, errorReason: failure.reason, senderId, lockedUntil: null, inFlightAt: null, updatedAt: at })
        .where(held(message));
      counts.retrying++;
    });

  return { fail, markOutcomeUnknown, handBack, settleStopped, scheduleRetry };
}
