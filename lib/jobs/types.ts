// What a background job is. Each domain defines its own (`lib/<domain>/jobs.ts`); the list of all of
// them is composed in lib/engine. Nothing here knows a domain.
import type { Executor } from "@/db/types";

export interface JobContext {
  /** Epoch ms after which the run should stop starting new work (what it started it may finish). */
  deadline: number;
  /** Aborted on shutdown (and by the caller's own signal): stop at once, hand back what is held. */
  signal: AbortSignal;
}

export interface Job<R = unknown> {
  /** `<domain>.<what>`, unique in the registry; logs and summaries name the job by it. */
  name: string;
  /**
   * A run starts at most this often per process (ms), whoever asks (the loop, the cron route, a
   * drain after a response). 0: whenever asked; the loop asks about once a second, and at once
   * again while a run found work.
   */
  every: number;
  run(db: Executor, context: JobContext): Promise<R>;
  /** A run gets at most this long, whatever the caller allows (ms). */
  maxMs?: number;
  /**
   * Set for work a response should start (messages or events it queued): the drain after a response
   * runs these jobs, one after another in registry order, each for up to this long (ms).
   */
  afterResponseMs?: number;
  /** One run per process at a time: asking while it runs joins the running one. */
  singleFlight?: boolean;
  /** True when the run found work (the loop runs the job again at once rather than after a pause). */
  busy?(result: R): boolean;
  /**
   * Whether this job has work due now or within `withinMs` (one cheap query): on serverless
   * platforms the dispatch chain (chain.ts) keeps going while some job says yes.
   */
  dueWithin?(db: Executor, withinMs: number): Promise<boolean>;
}

/** A job with its result type erased, as the registry holds it. */
export type AnyJob = Job<unknown>;

/** Declares a job; keeps `busy` typed against the job's own result. */
export function defineJob<R>(job: Job<R>): AnyJob {
  return job as AnyJob;
}

/** How one job's run went, in a runner's summary. */
export interface JobRun {
  name: string;
  /**
   * `ran`: started now; `joined`: joined a run already going (single flight); `not due`: ran less than
   * `every` ago; `stopped`: not started, the process's jobs are stopped (shutdown).
   */
  outcome: "ran" | "joined" | "not due" | "stopped" | "failed";
  startedAt: number;
  durationMs: number;
  /** What the job returned (absent when it did not run or failed). */
  result?: unknown;
  /** The failure, when it threw (logged, never rethrown). */
  error?: string;
  busy: boolean;
}

export interface JobsSummary {
  durationMs: number;
  /** Some job found work. */
  busy: boolean;
  jobs: JobRun[];
}
