// Process-level entry points to the dispatcher. The send rate of each sender is held in Postgres
// (shared by every process), so nothing here needs to be shared for that; the drain bookkeeping and
// the shutdown signal live on globalThis because Next.js can load this module in more than one
// module graph per process. Providers stay per module graph.
import { after } from "next/server";
import { getDb } from "@/db";
import { endStuckSessions } from "@/db/stuck-sessions";
import { runDispatch, type DispatchOptions, type DispatchSummary } from "./dispatcher";
import { defaultChannels } from "@/lib/channels";
import { describeError } from "@/lib/logging";
import { evaluateAlerts, type AlertPassSummary } from "@/lib/alerts/evaluate";
import { deliverDueWebhooks, pruneWebhookHistory, type WebhookPassSummary } from "@/lib/event-webhooks/deliveries";
import { writeSnapshotChunksDue } from "@/lib/bulk/snapshot";

const channels = defaultChannels();

interface DispatchState {
  /** The drain started by dispatchSoon, if one is running. */
  draining: Promise<void> | null;
  /** Set when dispatchSoon is called during a drain: drain once more when it ends. */
  again: boolean;
  /** Aborted on shutdown: every pass of the process stops claiming and hands back what it holds. */
  shutdown: AbortController;
  /** When this process last deleted expired webhook events. */
  webhooksPrunedAt: number;
  /** When this process last evaluated alerts. */
  alertsEvaluatedAt: number;
  /** When this process last looked for stuck database sessions. */
  sessionsCheckedAt?: number;
  /** The running writer of bulk snapshot chunks, if any (one per process). */
  writingSnapshots: Promise<number> | null;
}

function state(): DispatchState {
  const global = globalThis as { __sendstreamDispatch?: DispatchState };
  global.__sendstreamDispatch ??= { draining: null, again: false, shutdown: new AbortController(), webhooksPrunedAt: 0, alertsEvaluatedAt: 0, writingSnapshots: null };
  return global.__sendstreamDispatch;
}

/** Sends due messages now, until none are due or `deadlineMs` (default 10 s) has passed. */
export async function dispatchDue(options: Pick<DispatchOptions, "deadlineMs" | "limit" | "signal"> = {}): Promise<DispatchSummary> {
  const { shutdown } = state();
  const signal = options.signal ? AbortSignal.any([options.signal, shutdown.signal]) : shutdown.signal;
  return runDispatch({ db: await getDb(), channels }, { deadlineMs: options.deadlineMs ?? 10_000, limit: options.limit, signal });
}

const WEBHOOK_PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Delivers due event webhooks (the same machinery as messages: the in-process loop, the worker,
 * the cron route and the drain after a response), and about hourly deletes expired ones.
 */
export async function deliverWebhooksDue(options: { deadlineMs?: number } = {}): Promise<WebhookPassSummary> {
  const s = state();
  const db = await getDb();
  if (Date.now() - s.webhooksPrunedAt > WEBHOOK_PRUNE_EVERY_MS) {
    s.webhooksPrunedAt = Date.now();
    await pruneWebhookHistory(db);
  }
  return deliverDueWebhooks(db, { deadlineMs: options.deadlineMs ?? 10_000, signal: s.shutdown.signal });
}

const ALERTS_EVERY_MS = 30_000;
const STUCK_SESSIONS_EVERY_MS = 30_000;

/** Ends stuck database sessions (db/stuck-sessions.ts) at most every 30 s per process. */
export async function endStuckSessionsDue(): Promise<void> {
  const s = state();
  if (Date.now() - (s.sessionsCheckedAt ?? 0) < STUCK_SESSIONS_EVERY_MS) return;
  s.sessionsCheckedAt = Date.now();
  const ended = await endStuckSessions(await getDb());
  for (const session of ended) {
    console.error(`[database] ended session ${session.pid}: ${session.state} for ${session.seconds} s`);
  }
}

/** Evaluates alerts (lib/alerts) at most every 30 s per process; null when it was not yet time. */
export async function evaluateAlertsDue(): Promise<AlertPassSummary | null> {
  const s = state();
  if (Date.now() - s.alertsEvaluatedAt < ALERTS_EVERY_MS) return null;
  s.alertsEvaluatedAt = Date.now();
  return evaluateAlerts(await getDb());
}

/**
 * Writes the queued messages of launched bulk campaigns' pending snapshot chunks (lib/bulk/snapshot.ts)
 * until none is left or `deadlineMs` (default 30 s) has passed: started by the loop's ticks, the cron
 * route and after a launch's response. One writer per process; a call while it runs joins it. Never
 * throws (a failed chunk is rolled back and written by a later call).
 */
export function writeSnapshotsDue(options: { deadlineMs?: number } = {}): Promise<number> {
  const s = state();
  if (s.writingSnapshots) return s.writingSnapshots;
  const writing = (async () => {
    try {
      return await writeSnapshotChunksDue(await getDb(), { deadline: Date.now() + (options.deadlineMs ?? 30_000), signal: s.shutdown.signal });
    } catch (error) {
      console.error(`[bulk] writing snapshot chunks failed: ${describeError(error)}`);
      return 0;
    } finally {
      s.writingSnapshots = null;
    }
  })();
  s.writingSnapshots = writing;
  return writing;
}

/** After the current response (a launch), writes the rest of its snapshot's messages (`writeSnapshotsDue`). */
export function writeSnapshotsSoon(): void {
  try {
    after(() => writeSnapshotsDue());
  } catch {
    setImmediate(() => void writeSnapshotsDue());
  }
}

/**
 * Shutdown: every running pass stops claiming at once, hands back the messages it holds and gives
 * requests in flight up to 5 s. Resolves when the drain after a response has ended.
 */
export async function stopDispatching(): Promise<void> {
  const s = state();
  s.shutdown.abort();
  await Promise.all([dispatchSettled(), s.writingSnapshots]);
  // Passes already running saw the abort; a later start (tests, a restarted loop) begins afresh.
  if (s.shutdown.signal.aborted) s.shutdown = new AbortController();
}

/** How long a drain after a trigger response keeps claiming (the route's maxDuration bounds it too). */
const SOON_DEADLINE_MS = 20_000;

function drain(): Promise<void> {
  const s = state();
  if (s.draining) {
    s.again = true;
    return s.draining;
  }
  s.draining = (async () => {
    try {
      do {
        s.again = false;
        if (s.shutdown.signal.aborted) break;
        await dispatchDue({ deadlineMs: SOON_DEADLINE_MS });
        // The events of what was just sent, and test events, go out without waiting for the loop or cron.
        await deliverWebhooksDue({ deadlineMs: 5_000 });
      } while (s.again);
    } catch (error) {
      console.error(`[dispatcher] dispatch after response failed: ${describeError(error)}`);
    } finally {
      s.draining = null;
    }
  })();
  return s.draining;
}

/**
 * Sends queued messages right after the current response. Inside a request it uses `after()` (so
 * serverless platforms keep the function alive for it); elsewhere it runs on the next tick. Calls
 * during a running drain coalesce into one more drain. Never throws.
 */
export function dispatchSoon(): void {
  try {
    after(() => drain());
  } catch {
    // Not inside a request (scripts, tests, the in-process loop).
    setImmediate(() => void drain());
  }
}

/** Resolves when the drain started by dispatchSoon (if any) has finished (shutdown, tests). */
export async function dispatchSettled(): Promise<void> {
  while (state().draining) await state().draining;
}
