// The dispatcher: claims due messages, sends them through the workspace's provider at the sender's
// throughput, and records the outcome. Safe with any number of instances: a claim takes rows with
// FOR UPDATE SKIP LOCKED and leases them (`locked_until`); every later write is fenced on that
// lease, so a row reclaimed by another instance after its lease expired is never overwritten.
import { and, eq, inArray, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messages, senders } from "@/db/schema";
import { classifySendError, MAX_SEND_ATTEMPTS, retryDelayMs, type SendFailure } from "./errors";
import { defaultProviders, type ProviderRegistry, type SenderForSend } from "./providers";
import { advanceSandboxDeliveries } from "./providers/sandbox";
import { createThroughputLimiter, type ThroughputLimiter } from "./throughput";
import { describeError } from "@/lib/logging";

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface DispatchDeps {
  db: Executor;
  clock?: Clock;
  providers?: ProviderRegistry;
  limiter?: ThroughputLimiter;
  random?: () => number;
}

export interface DispatchOptions {
  /** Stop claiming new messages after this long (ms); messages already claimed are finished. */
  deadlineMs?: number;
  /** Claim at most this many messages in this pass. */
  limit?: number;
  /** Messages claimed per query. */
  batchSize?: number;
  /** Claimed messages held in memory (waiting for their sender's slot or in flight) at most. */
  maxPending?: number;
  /** Provider requests in flight at once, over all senders. */
  maxInFlight?: number;
  /** Lease on a claimed row; an unfinished row is reclaimed after it. */
  leaseMs?: number;
  maxAttempts?: number;
  /** Only dispatch messages of these workspaces (tests, or draining one workspace). */
  workspaceIds?: string[];
}

export interface DispatchSummary {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  /** Claimed but handed back unsent because the sender's throughput left no slot in time. */
  deferred: number;
  /** Sandbox messages moved to delivered/read. */
  simulated: number;
  durationMs: number;
}

export const DEFAULT_LEASE_MS = 60_000;
/** Time kept free at the end of a lease for the provider request and the result write. */
const SEND_BUDGET_MS = 15_000;
/** A sender is not claimed for while it already has this much booked work. */
const SATURATED_BACKLOG_MS = 1_000;
/** A sender's slot is waited for at most this long; later ones are handed back to the queue. */
const MAX_SLOT_WAIT_MS = 20_000;
const IDLE_POLL_MS = 200;
/** Claimed messages may still wait for their slot this long after the deadline (then handed back). */
const DEADLINE_GRACE_MS = 5_000;

interface ClaimedMessage {
  id: string;
  workspaceId: string;
  phoneNumber: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** The lease this pass holds; fences every write. */
  lease: Date;
}

interface Lane {
  sender: SenderForSend;
  queue: ClaimedMessage[];
  running: Promise<void> | null;
}

/** Claims up to `count` due messages (queued, or sending with an expired lease) for `lease`. */
export async function claimDueMessages(
  db: Executor,
  input: { now: Date; lease: Date; count: number; excludeWorkspaceIds?: string[]; onlyWorkspaceIds?: string[] },
): Promise<ClaimedMessage[]> {
  const due = db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        // Literal statuses so the partial index messages_due_idx applies.
        sql`${messages.status} in ('queued', 'sending')`,
        lte(messages.nextAttemptAt, input.now),
        or(isNull(messages.lockedUntil), lt(messages.lockedUntil, input.now)),
        input.excludeWorkspaceIds?.length ? notInArray(messages.workspaceId, input.excludeWorkspaceIds) : undefined,
        input.onlyWorkspaceIds ? inArray(messages.workspaceId, input.onlyWorkspaceIds) : undefined,
      ),
    )
    .orderBy(messages.nextAttemptAt)
    .limit(input.count)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(messages)
    .set({ status: "sending", lockedUntil: input.lease, attempts: sql`${messages.attempts} + 1`, updatedAt: input.now })
    .where(inArray(messages.id, due))
    .returning({
      id: messages.id,
      workspaceId: messages.workspaceId,
      phoneNumber: messages.phoneNumber,
      payload: messages.payload,
      attempts: messages.attempts,
    });
  return rows.map((row) => ({ ...row, lease: input.lease }));
}

function held(message: ClaimedMessage) {
  return and(eq(messages.id, message.id), eq(messages.status, "sending"), eq(messages.lockedUntil, message.lease));
}

async function loadSenders(db: Executor, workspaceIds: string[]): Promise<Map<string, SenderForSend>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: senders.id,
      workspaceId: senders.workspaceId,
      provider: senders.provider,
      phoneNumberId: senders.phoneNumberId,
      accessTokenEncrypted: senders.accessTokenEncrypted,
      throughputPerSecond: senders.throughputPerSecond,
    })
    .from(senders)
    .where(inArray(senders.workspaceId, workspaceIds));
  return new Map(rows.map((row) => [row.workspaceId, row]));
}

interface SentRecord {
  message: ClaimedMessage;
  wamid: string;
  sentAt: Date;
  senderId: string;
}

const SENT_BATCH_SIZE = 200;
const SENT_BATCH_DELAY_MS = 10;

/**
 * Collects sent results and writes them with one fenced UPDATE … FROM (VALUES …) per batch. A
 * batch is written when it is full or SENT_BATCH_DELAY_MS after its first record; `record`
 * resolves once the row is written, so a pass never ends with results in memory.
 */
function createSentWriter(db: Executor, onWritten: (count: number) => void, guard: (what: string, work: () => Promise<unknown>) => Promise<void>) {
  let batch: { records: SentRecord[]; done: Promise<void>; resolve: () => void } | null = null;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    const current = batch;
    if (!current) return;
    batch = null;
    clearTimeout(timer);
    void guard(`recording ${current.records.length} sends`, async () => {
      // ISO strings with casts: postgres.js does not serialise a Date inside sql``.
      const values = sql.join(
        current.records.map(
          (r) => sql`(${r.message.id}, ${r.wamid}, ${r.sentAt.toISOString()}::timestamptz, ${r.senderId}, ${r.message.lease.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      const updated = await queryRows<{ id: string }>(
        db,
        sql`update ${messages} as m
          set status = 'sent', wamid = v.wamid, sent_at = v.sent_at, sender_id = v.sender_id, locked_until = null,
              error_code = null, error_reason = null, updated_at = v.sent_at
          from (values ${values}) as v(id, wamid, sent_at, sender_id, lease)
          where m.id = v.id and m.status = 'sending' and m.locked_until = v.lease
          returning m.id`,
      );
      onWritten(updated.length);
    }).finally(current.resolve);
  };

  return {
    record(record: SentRecord): Promise<void> {
      if (!batch) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => (resolve = r));
        batch = { records: [], done, resolve };
        timer = setTimeout(flush, SENT_BATCH_DELAY_MS);
      }
      const current = batch;
      current.records.push(record);
      if (current.records.length >= SENT_BATCH_SIZE) flush();
      return current.done;
    },
  };
}

function semaphore(size: number) {
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

/** One dispatch pass: drains due messages until none are left or the deadline passes. */
export async function runDispatch(deps: DispatchDeps, options: DispatchOptions = {}): Promise<DispatchSummary> {
  const db = deps.db;
  const clock = deps.clock ?? systemClock;
  const providers = deps.providers ?? defaultProviders();
  const limiter = deps.limiter ?? createThroughputLimiter();
  const random = deps.random ?? Math.random;
  const batchSize = options.batchSize ?? 500;
  const maxPending = Math.max(batchSize, options.maxPending ?? 5_000);
  const limit = options.limit ?? Infinity;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const maxAttempts = options.maxAttempts ?? MAX_SEND_ATTEMPTS;
  const started = clock.now();
  const deadline = started + (options.deadlineMs ?? 10_000);
  const inFlight = semaphore(options.maxInFlight ?? 128);
  const summary: DispatchSummary = { claimed: 0, sent: 0, retrying: 0, failed: 0, deferred: 0, simulated: 0, durationMs: 0 };
  const lanes = new Map<string, Lane>();
  const senderCache = new Map<string, SenderForSend | null>();
  const tasks = new Set<Promise<void>>();
  let queued = 0;

  const track = (task: Promise<void>) => {
    tasks.add(task);
    void task.finally(() => tasks.delete(task));
  };

  const guard = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      // The lease expires and another pass picks the message up again.
      console.error(`[dispatcher] ${what} failed: ${describeError(error)}`);
    }
  };

  // Successful sends are written in batches (one UPDATE per batch), the hot path at high rates.
  const sentWriter = createSentWriter(db, (count) => (summary.sent += count), guard);

  const fail = (message: ClaimedMessage, failure: Pick<SendFailure, "code" | "reason">) =>
    guard(`recording failure of ${message.id}`, async () => {
      const now = new Date(clock.now());
      await db
        .update(messages)
        .set({ status: "failed", failedAt: now, errorCode: failure.code, errorReason: failure.reason, lockedUntil: null, updatedAt: now })
        .where(held(message));
      summary.failed++;
    });

  const send = async (message: ClaimedMessage, sender: SenderForSend) => {
    let outcome: { wamid: string } | { failure: SendFailure };
    try {
      outcome = await providers[sender.provider].send(message, sender);
    } catch (error) {
      outcome = { failure: classifySendError(error) };
    }
    const now = new Date(clock.now());
    if ("wamid" in outcome) {
      await sentWriter.record({ message, wamid: outcome.wamid, sentAt: now, senderId: sender.id });
      return;
    }
    const { failure } = outcome;
    if (!failure.retryable || message.attempts >= maxAttempts) {
      const reason = failure.retryable ? `${failure.reason} Gave up after ${message.attempts} attempts.` : failure.reason;
      await fail(message, { code: failure.code, reason });
      return;
    }
    await guard(`scheduling retry of ${message.id}`, async () => {
      await db
        .update(messages)
        .set({
          status: "queued",
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(message.attempts, failure, random)),
          errorCode: failure.code,
          errorReason: failure.reason,
          senderId: sender.id,
          lockedUntil: null,
          updatedAt: now,
        })
        .where(held(message));
      summary.retrying++;
    });
  };

  /** Hands claimed messages back unsent: the attempt is not counted. */
  const defer = (items: ClaimedMessage[], notBefore: number) =>
    guard("handing messages back", async () => {
      const byLease = new Map<number, string[]>();
      for (const item of items) byLease.set(item.lease.getTime(), [...(byLease.get(item.lease.getTime()) ?? []), item.id]);
      for (const [lease, ids] of byLease) {
        await db
          .update(messages)
          .set({ status: "queued", attempts: sql`${messages.attempts} - 1`, nextAttemptAt: new Date(notBefore), lockedUntil: null, updatedAt: new Date(clock.now()) })
          .where(and(inArray(messages.id, ids), eq(messages.status, "sending"), eq(messages.lockedUntil, new Date(lease))));
      }
      summary.deferred += items.length;
    });

  const runLane = async (lane: Lane) => {
    const { sender } = lane;
    while (lane.queue.length > 0) {
      const message = lane.queue.shift()!;
      queued--;
      const now = clock.now();
      const maxWait = Math.min(MAX_SLOT_WAIT_MS, message.lease.getTime() - SEND_BUDGET_MS - now, deadline + DEADLINE_GRACE_MS - now);
      const wait = maxWait < 0 ? null : limiter.reserve(sender.id, sender.throughputPerSecond, now, maxWait);
      if (wait === null) {
        const rest = [message, ...lane.queue.splice(0)];
        queued -= rest.length - 1;
        await defer(rest, now + limiter.backlogMs(sender.id, now));
        break;
      }
      if (wait > 0) await clock.sleep(wait);
      await inFlight.acquire();
      track(send(message, sender).finally(() => inFlight.release()));
    }
    lane.running = null;
  };

  const enqueue = (message: ClaimedMessage, sender: SenderForSend) => {
    let lane = lanes.get(sender.workspaceId);
    if (!lane) {
      lane = { sender, queue: [], running: null };
      lanes.set(sender.workspaceId, lane);
    }
    lane.queue.push(message);
    queued++;
    if (!lane.running) {
      const current = lane;
      current.running = runLane(current);
      track(current.running);
    }
  };

  const saturatedWorkspaces = (now: number) =>
    [...lanes.values()]
      .filter((lane) => limiter.backlogMs(lane.sender.id, now) + (lane.queue.length * 1000) / Math.max(1, lane.sender.throughputPerSecond) > SATURATED_BACKLOG_MS)
      .map((lane) => lane.sender.workspaceId);

  await guard("advancing sandbox deliveries", async () => {
    summary.simulated += await advanceSandboxDeliveries(db, new Date(clock.now()));
  });

  while (clock.now() < deadline && summary.claimed < limit) {
    const pending = queued + inFlight.inUse;
    if (pending >= maxPending) {
      await clock.sleep(10);
      continue;
    }
    const now = clock.now();
    let claimed: ClaimedMessage[];
    try {
      claimed = await claimDueMessages(db, {
        now: new Date(now),
        lease: new Date(now + leaseMs),
        count: Math.min(batchSize, maxPending - pending, limit - summary.claimed),
        excludeWorkspaceIds: saturatedWorkspaces(now),
        onlyWorkspaceIds: options.workspaceIds,
      });
    } catch (error) {
      console.error(`[dispatcher] claiming due messages failed: ${describeError(error)}`);
      break;
    }
    if (claimed.length === 0) {
      if (pending === 0 && tasks.size === 0) break;
      await clock.sleep(IDLE_POLL_MS);
      continue;
    }
    summary.claimed += claimed.length;
    const unknown = [...new Set(claimed.map((m) => m.workspaceId))].filter((id) => !senderCache.has(id));
    if (unknown.length > 0) {
      const loaded = await loadSenders(db, unknown).catch((error: unknown) => {
        console.error(`[dispatcher] loading senders failed: ${describeError(error)}`);
        return null;
      });
      if (!loaded) break; // leases expire; the messages are picked up again
      for (const id of unknown) senderCache.set(id, loaded.get(id) ?? null);
    }
    for (const message of claimed) {
      const sender = senderCache.get(message.workspaceId);
      if (!sender) {
        track(fail(message, { code: "no_sender", reason: "The workspace has no sender configured." }));
      } else if (message.attempts > maxAttempts) {
        // A lease that expired on its last attempt (the process died mid-send): stop here.
        track(fail(message, { code: "attempts_exhausted", reason: `The message could not be sent after ${maxAttempts} attempts.` }));
      } else {
        enqueue(message, sender);
      }
    }
  }
  while (tasks.size > 0) await Promise.allSettled([...tasks]);
  summary.durationMs = clock.now() - started;
  return summary;
}
