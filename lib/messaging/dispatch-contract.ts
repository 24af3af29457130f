// What a dispatch pass is given and what it reports: its dependencies, options, summary and the
// timings callers rely on (the pass itself is dispatcher.ts).
import type { Executor } from "@/db";
import type { Channel, ChannelName } from "@/lib/channels";
import type { ClaimRenderer } from "./claims";
import type { ClaimOwner } from "./owner";
import type { ThroughputLimiter } from "./throughput";

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What a pass needs of a channel: sending and classifying what a send threw. */
export type DispatchChannels = Record<ChannelName, Pick<Channel, "send" | "classifyError">>;

export interface DispatchDeps {
  db: Executor;
  clock?: Clock;
  /** The channels sends go through, by name; by default every registered channel (lib/channels). */
  channels?: DispatchChannels;
  /** Send-rate lanes; by default shared by all processes through Postgres. */
  limiter?: ThroughputLimiter;
  random?: () => number;
  /** Whose claims this pass makes; by default the process's owner for this database (owner.ts). */
  owner?: ClaimOwner;
  /** Renders bare bulk rows as they are claimed (the bulk backend's); without it rows are sent as stored. */
  renderClaimed?: ClaimRenderer;
  /**
   * Other domains' work run beside the pass's claims (bulk housekeeping: a campaign it starts is
   * claimed in the same pass). Guarded: a failure only logs. The pass ends once it is done.
   */
  housekeeping?: (db: Executor, now: Date) => Promise<unknown>;
  /** Simulated deliveries (the sandbox's), run beside the claims; returns how many messages moved (`simulated`). */
  simulateDeliveries?: (db: Executor, now: Date) => Promise<number>;
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
  /**
   * Shutdown: stop claiming at once, hand back held messages (attempt not counted), and give
   * requests in flight ABORT_GRACE_MS to finish; any still open then are marked outcome-unknown.
   */
  signal?: AbortSignal;
  /** How long a message whose send may have reached Meta waits for a status before it fails. */
  outcomeGraceMs?: number;
}

export interface DispatchSummary {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  /** Claimed but handed back unsent (no slot in time, campaign paused, shutdown); attempt not counted. */
  deferred: number;
  /** Held messages of a cancelled campaign, now `skipped`. */
  skipped: number;
  /** Sends that may have reached Meta (timeout after the request was written): not retried. */
  unknown: number;
  /** Sandbox messages moved to delivered/read. */
  simulated: number;
  durationMs: number;
}

export const DEFAULT_LEASE_MS = 60_000;
/** A pass that is told to stop gives requests in flight this long, then returns. */
export const ABORT_GRACE_MS = 5_000;
/** A send whose outcome is unknown fails after this long (no status can name it: it has no provider message id). */
export const OUTCOME_GRACE_MS = 2 * 60_000;
