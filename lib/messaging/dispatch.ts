// Process-level entry points to the dispatcher. The throughput limiter and the drain bookkeeping live
// on globalThis: Next.js can load this module in more than one module graph per process, and every
// pass in the process must share them to hold a sender at its rate. Providers stay per module graph.
import { after } from "next/server";
import { getDb } from "@/db";
import { runDispatch, type DispatchOptions, type DispatchSummary } from "./dispatcher";
import { defaultProviders, type ProviderRegistry } from "./providers";
import { createThroughputLimiter, type ThroughputLimiter } from "./throughput";
import { describeError } from "@/lib/logging";

const providers: ProviderRegistry = defaultProviders();

interface DispatchState {
  limiter: ThroughputLimiter;
  /** The drain started by dispatchSoon, if one is running. */
  draining: Promise<void> | null;
  /** Set when dispatchSoon is called during a drain: drain once more when it ends. */
  again: boolean;
}

function state(): DispatchState {
  const global = globalThis as { __sendstreamDispatch?: DispatchState };
  global.__sendstreamDispatch ??= { limiter: createThroughputLimiter(), draining: null, again: false };
  return global.__sendstreamDispatch;
}

/** Sends due messages now, until none are due or `deadlineMs` (default 10 s) has passed. */
export async function dispatchDue(options: Pick<DispatchOptions, "deadlineMs" | "limit"> = {}): Promise<DispatchSummary> {
  const { limiter } = state();
  return runDispatch({ db: await getDb(), limiter, providers }, { deadlineMs: options.deadlineMs ?? 10_000, limit: options.limit });
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
        await dispatchDue({ deadlineMs: SOON_DEADLINE_MS });
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
