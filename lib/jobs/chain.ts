// The dispatch chain: background work on serverless platforms, where no process stays up to run the
// loop. A hop is one call of the cron route (`POST /api/cron/dispatch`): it answers 202 at once and
// runs the registry after the response (each job on its own schedule, as the loop does) until shortly
// before its function's time limit; then, if work is still due, it asks for the next hop (the same
// route, its lease token in the request) and waits only for that hop's 202 before it stops claiming
// and finishes what it holds. One chain at a time: the hop holds the `jobs.chain` lease
// (lib/jobs/lease.ts) and hands it to the next hop; a hop that dies lets it expire, and the next drain
// after a response or cron call starts a chain again. Hops overlap for a moment at each handover: safe,
// because what two passes share (claims, per-sender pacing) is held in Postgres.
import { after } from "next/server";
import { getDb } from "@/db";
import type { Executor } from "@/db/types";
import { appUrl } from "@/lib/env";
import { randomBase62 } from "@/lib/crypto/random";
import { describeError } from "@/lib/logging";
import { leaseHeld, releaseLease, takeLease } from "./lease";
import { installedJobs, runJob, track } from "./runner";
import type { AnyJob } from "./types";

export const CHAIN_LEASE = "jobs.chain";
/** Carries the current hop's lease token to the next hop. */
export const CHAIN_TOKEN_HEADER = "x-sendstream-chain";
export const CHAIN_PATH = "/api/cron/dispatch";

/** The chain keeps going while some work falls due within this long. */
export const CHAIN_HORIZON_MS = 120_000;
/** A hop stops claiming this long before its time limit: held sends, in-flight grace, the next hop's answer. */
const STOP_CLAIMING_BEFORE_LIMIT_MS = 12_000;
/** The next hop is asked for this long before this one stops claiming, so sending has no gap. */
const HANDOVER_LEAD_MS = 3_000;
/** How long a lease outlives its hop's time limit: a dead hop's chain resumes after this. */
const LEASE_SLACK_MS = 15_000;
/** How long asking for a hop waits for its answer. */
const HOP_ANSWER_TIMEOUT_MS = 10_000;
const POLL_MS = 1_000;
const CHECK_MS = 2_000;

/** Serverless mode: on Vercel (`VERCEL` set) or with `DISPATCH_CHAIN=on`; `DISPATCH_CHAIN=off` turns it off. */
export function chainingEnabled(env: Record<string, string | undefined> = process.env): boolean {
  if (env.DISPATCH_CHAIN === "off") return false;
  return env.DISPATCH_CHAIN === "on" || Boolean(env.VERCEL);
}

/** A hop's time limit: `FUNCTION_TIME_LIMIT_MS` when set, else the route's `maxDuration`. */
export function functionTimeLimitMs(maxDurationS: number, env: Record<string, string | undefined> = process.env): number {
  const configured = Number(env.FUNCTION_TIME_LIMIT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : maxDurationS * 1000;
}

export interface HopAnswer {
  /** The hop took the lease and runs (202). */
  accepted: boolean;
  status?: number;
  reason?: string;
}

/** Asks for a hop: `previous` is the asking hop's token (a handover), null to start a chain. */
export type RequestHop = (previous: string | null) => Promise<HopAnswer>;

/** Any installed job has work due within `withinMs` (each job's own `dueWithin`). */
export async function workDueWithin(db: Executor, withinMs: number, jobs: AnyJob[] = installedJobs()): Promise<boolean> {
  const answers = await Promise.all(
    jobs.map(async (job) => {
      if (!job.dueWithin) return false;
      try {
        return await job.dueWithin(db, withinMs);
      } catch (error) {
        console.error(`[jobs] ${job.name}: asking for due work failed: ${describeError(error)}`);
        return true;
      }
    }),
  );
  return answers.some(Boolean);
}

/** The origin hops are asked on: APP_URL, else the request's, else Vercel's production domain (a preview: its own host). */
export function chainOrigin(requestOrigin?: string): string {
  const production = process.env.VERCEL_ENV === "production" ? process.env.VERCEL_PROJECT_PRODUCTION_URL : undefined;
  const vercelHost = production || process.env.VERCEL_URL;
  return appUrl(requestOrigin ?? (vercelHost ? `https://${vercelHost}` : undefined));
}

/** Asks for hops over HTTP: `POST {origin}/api/cron/dispatch` with the cron secret. */
export function httpHopRequester(origin: string): RequestHop {
  return async (previous) => {
    const secret = process.env.CRON_SECRET;
    if (!secret) return { accepted: false, reason: "CRON_SECRET is not set" };
    try {
      const response = await fetch(`${origin}${CHAIN_PATH}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${secret}`,
          ...(previous ? { [CHAIN_TOKEN_HEADER]: previous } : {}),
          // A deployment behind Vercel's Deployment Protection lets its own calls through with this.
          ...(process.env.VERCEL_AUTOMATION_BYPASS_SECRET ? { "x-vercel-protection-bypass": process.env.VERCEL_AUTOMATION_BYPASS_SECRET } : {}),
        },
        signal: AbortSignal.timeout(HOP_ANSWER_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => ({}))) as { reason?: string };
      return { accepted: response.status === 202, status: response.status, reason: body.reason };
    } catch (error) {
      return { accepted: false, reason: describeError(error) };
    }
  };
}

export interface HopOptions {
  /** This hop's lease token (it holds `jobs.chain` under it). */
  token: string;
  /** When the hop's request started: its time limit counts from here. */
  startedAt: number;
  limitMs: number;
  requestHop: RequestHop;
  jobs?: AnyJob[];
  db?: Executor;
  /** Stops the hop at once, beside its time limit (tests: a hop killed mid-way). */
  signal?: AbortSignal;
  /** Timings, shortened by tests. */
  stopClaimingBeforeLimitMs?: number;
  handoverLeadMs?: number;
  pollMs?: number;
  checkMs?: number;
}

export interface HopSummary {
  token: string;
  durationMs: number;
  /** `handed over`, `nothing due`, `handover refused: …`, `cut at the time limit`, `aborted`. */
  ending: string;
  handedOver: boolean;
  runs: number;
}

const sleepUntil = (at: number, signals: AbortSignal[]) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, at - Date.now()));
    function done() {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener("abort", done);
      resolve();
    }
    for (const signal of signals) {
      if (signal.aborted) return done();
      signal.addEventListener("abort", done, { once: true });
    }
  });

/** Runs one hop of the chain (after its 202): the registry until shortly before the time limit, then the handover. */
export async function runChainHop(options: HopOptions): Promise<HopSummary> {
  const db = options.db ?? (await getDb());
  const jobs = options.jobs ?? installedJobs();
  const limitAt = options.startedAt + options.limitMs;
  // Short limits (tests, a small FUNCTION_TIME_LIMIT_MS) keep most of the hop for work.
  const stopClaimingAt = limitAt - (options.stopClaimingBeforeLimitMs ?? Math.min(STOP_CLAIMING_BEFORE_LIMIT_MS, options.limitMs / 4));
  const handoverAt = stopClaimingAt - (options.handoverLeadMs ?? Math.min(HANDOVER_LEAD_MS, options.limitMs / 20));
  const pollMs = options.pollMs ?? POLL_MS;
  const cut = new AbortController();
  const cutTimer = setTimeout(() => cut.abort(), Math.max(0, limitAt - Date.now()));
  const signal = options.signal ? AbortSignal.any([cut.signal, options.signal]) : cut.signal;
  // Ends the jobs' loops between runs once nothing is due (a run going on finishes its work).
  const idle = new AbortController();
  const busy = new Map<string, boolean>();
  let runs = 0;

  const loops = jobs.map(async (job) => {
    while (!signal.aborted && !idle.signal.aborted && Date.now() < stopClaimingAt) {
      const run = await runJob(job, { deadlineMs: stopClaimingAt - Date.now(), signal, db });
      runs += 1;
      busy.set(job.name, run.busy);
      if (!run.busy) await sleepUntil(Math.min(Date.now() + Math.max(pollMs, job.every), stopClaimingAt), [signal, idle.signal]);
    }
  });

  let ending = "nothing due";
  let handedOver = false;
  try {
    for (;;) {
      await sleepUntil(Math.min(Date.now() + (options.checkMs ?? CHECK_MS), handoverAt), [signal]);
      if (signal.aborted) {
        ending = cut.signal.aborted ? "cut at the time limit" : "aborted";
        break;
      }
      const anyBusy = [...busy.values()].some(Boolean);
      const due = anyBusy || (await workDueWithin(db, CHAIN_HORIZON_MS, jobs));
      if (!due) {
        idle.abort();
        break;
      }
      if (Date.now() >= handoverAt) {
        const answer = await options.requestHop(options.token);
        handedOver = answer.accepted;
        ending = handedOver ? "handed over" : `handover refused: ${answer.reason ?? answer.status ?? "no answer"}`;
        break;
      }
    }
  } catch (error) {
    ending = `failed: ${describeError(error)}`;
  }
  await Promise.all(loops);
  clearTimeout(cutTimer);
  if (!handedOver) {
    try {
      await releaseLease(db, CHAIN_LEASE, options.token);
      // Work queued while this hop decided to stop found the lease still held and started no chain.
      if (!signal.aborted && ending === "nothing due" && (await workDueWithin(db, CHAIN_HORIZON_MS, jobs))) await options.requestHop(null);
    } catch (error) {
      console.error(`[jobs] chain: releasing the lease failed: ${describeError(error)}`);
    }
  }
  const summary = { token: options.token, durationMs: Date.now() - options.startedAt, ending, handedOver, runs };
  console.log(`[jobs] chain hop ${summary.token} ended after ${summary.durationMs} ms of ${options.limitMs} ms: ${ending} (${runs} runs)`);
  return summary;
}

export interface ChainCall {
  /** The token presented by the hop asking (a handover), null to start a chain. */
  previous: string | null;
  /** When the call's request started. */
  startedAt: number;
  limitMs: number;
  requestHop: RequestHop;
  db?: Executor;
  /** Runs the hop; by default after the response (`after()`), on the next tick outside a request. */
  schedule?: (hop: () => Promise<unknown>) => void;
}

export type ChainCallAnswer = { chained: true; hop: string } | { chained: false; reason: string };

/** A call of the chain route: takes the lease (at most one chain) and runs the hop after the response. */
export async function acceptChainCall(call: ChainCall): Promise<ChainCallAnswer> {
  const db = call.db ?? (await getDb());
  const token = randomBase62(16);
  const taken = await takeLease(db, { name: CHAIN_LEASE, holder: token, ttlMs: call.limitMs + LEASE_SLACK_MS, handedOverBy: call.previous });
  if (!taken) return { chained: false, reason: "already running" };
  const hop = () => track(runChainHop({ token, startedAt: call.startedAt, limitMs: call.limitMs, requestHop: call.requestHop, db: call.db }));
  (call.schedule ?? scheduleAfterResponse)(hop);
  return { chained: true, hop: token };
}

function scheduleAfterResponse(work: () => Promise<unknown>): void {
  try {
    after(work);
  } catch {
    setImmediate(() => void work());
  }
}

/** A chain holds the lease now (false when the database cannot tell). */
export async function chainRunning(db?: Executor): Promise<boolean> {
  try {
    return await leaseHeld(db ?? (await getDb()), CHAIN_LEASE);
  } catch (error) {
    console.error(`[jobs] chain: reading the lease failed: ${describeError(error)}`);
    return false;
  }
}

/**
 * Starts a chain when work is due within the horizon and none runs (after a drain, after a cron
 * call). Serverless mode only; never throws. Answers what it did.
 */
export async function startChainIfDue(options: { requestHop?: RequestHop; db?: Executor } = {}): Promise<string> {
  if (!chainingEnabled()) return "not serverless";
  try {
    const db = options.db ?? (await getDb());
    if (await leaseHeld(db, CHAIN_LEASE)) return "already running";
    if (!(await workDueWithin(db, CHAIN_HORIZON_MS))) return "nothing due";
    const answer = await (options.requestHop ?? httpHopRequester(chainOrigin()))(null);
    return answer.accepted ? "started" : `not started: ${answer.reason ?? answer.status ?? "no answer"}`;
  } catch (error) {
    console.error(`[jobs] chain: starting failed: ${describeError(error)}`);
    return "failed";
  }
}
