// Runs registered jobs: one job at a time (`runJob`) or a list of them side by side (`runJobs`).
// Each run is isolated (a job that throws is logged and reported, never stops the others), gets a
// deadline and the process's shutdown signal, and is timed. The per-process state (when each job last
// started, single-flight runs, the shutdown signal, the installed registry) lives on globalThis:
// Next.js can load this module in more than one module graph per process.
import { getDb } from "@/db";
import type { Executor } from "@/db/types";
import { describeError } from "@/lib/logging";
import type { AnyJob, JobRun, JobsSummary } from "./types";

interface JobsState {
  /** Aborted on shutdown: every run of the process stops. */
  shutdown: AbortController;
  /** When each job last started in this process (the `every` guard). */
  lastStart: Map<string, number>;
  /** When each job's last run in this process ended, and whether it failed (health). */
  lastEnd: Map<string, { at: number; failed: boolean }>;
  /** The in-process loop, while one runs: when it started and the jobs it runs (health). */
  loop: { startedAt: number; jobs: { name: string; every: number }[] } | null;
  /** Single-flight jobs running now. */
  running: Map<string, Promise<JobRun>>;
  /** Every run in progress (shutdown waits for them). */
  inProgress: Set<Promise<unknown>>;
  /** The registry the composition root installed (lib/engine). */
  installed: AnyJob[] | null;
  /** Stopped by `stopJobs({ keepStopped: true })`: nothing starts until a registry is installed again. */
  keptStopped: boolean;
}

export function jobsState(): JobsState {
  const global = globalThis as { __sendstreamJobs?: JobsState };
  global.__sendstreamJobs ??= {
    shutdown: new AbortController(),
    lastStart: new Map(),
    lastEnd: new Map(),
    loop: null,
    running: new Map(),
    inProgress: new Set(),
    installed: null,
    keptStopped: false,
  };
  return global.__sendstreamJobs;
}

/**
 * Installs the process's registry (the composition root does, once at start; later calls replace it).
 * Jobs left stopped (`stopJobs({ keepStopped: true })`) start again with it.
 */
export function installJobs(jobs: AnyJob[]): void {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`Two jobs are named ${job.name}.`);
    names.add(job.name);
  }
  const s = jobsState();
  s.installed = [...jobs];
  s.keptStopped = false;
  if (s.shutdown.signal.aborted) s.shutdown = new AbortController();
}

/** The installed registry; empty (and said once in the log) when nothing installed one. */
export function installedJobs(): AnyJob[] {
  const s = jobsState();
  if (s.installed) return s.installed;
  const global = globalThis as { __sendstreamJobsWarned?: boolean };
  if (!global.__sendstreamJobsWarned) {
    global.__sendstreamJobsWarned = true;
    console.error("[jobs] no job registry is installed in this process: background work does not run");
  }
  return [];
}

export interface RunOptions {
  /** How long the run may take (ms); capped by the job's own `maxMs`. */
  deadlineMs: number;
  /** Stops the run early, beside the process's shutdown signal. */
  signal?: AbortSignal;
  /** The database; by default the process's. */
  db?: Executor;
}

/**
 * Runs one job now, unless it ran less than `every` ago in this process, or the process's jobs are
 * stopped (nothing is started then, not even a connection to the database). Never throws.
 */
export function runJob(job: AnyJob, options: RunOptions): Promise<JobRun> {
  const s = jobsState();
  const startedAt = Date.now();
  if (s.shutdown.signal.aborted) return Promise.resolve({ name: job.name, outcome: "stopped", startedAt, durationMs: 0, busy: false });
  const last = s.lastStart.get(job.name);
  if (job.every > 0 && last !== undefined && startedAt - last < job.every) {
    return Promise.resolve({ name: job.name, outcome: "not due", startedAt, durationMs: 0, busy: false });
  }
  if (job.singleFlight) {
    const running = s.running.get(job.name);
    if (running) return running.then((run) => ({ ...run, outcome: run.outcome === "failed" ? "failed" : "joined" }));
  }
  s.lastStart.set(job.name, startedAt);
  const signal = options.signal ? AbortSignal.any([options.signal, s.shutdown.signal]) : s.shutdown.signal;
  const deadline = startedAt + Math.min(options.deadlineMs, job.maxMs ?? Infinity);
  const run = (async (): Promise<JobRun> => {
    try {
      const result = await job.run(options.db ?? (await getDb()), { deadline, signal });
      s.lastEnd.set(job.name, { at: Date.now(), failed: false });
      return { name: job.name, outcome: "ran", startedAt, durationMs: Date.now() - startedAt, result, busy: job.busy?.(result) ?? false };
    } catch (error) {
      const message = describeError(error);
      console.error(`[jobs] ${job.name} failed: ${message}`);
      s.lastEnd.set(job.name, { at: Date.now(), failed: true });
      return { name: job.name, outcome: "failed", startedAt, durationMs: Date.now() - startedAt, error: message, busy: false };
    }
  })();
  track(run);
  if (job.singleFlight) {
    s.running.set(job.name, run);
    void run.finally(() => {
      if (s.running.get(job.name) === run) s.running.delete(job.name);
    });
  }
  return run;
}

/** Counts `work` as in progress until it settles: shutdown waits for it. */
export function track<T>(work: Promise<T>): Promise<T> {
  const s = jobsState();
  s.inProgress.add(work);
  void work.finally(() => s.inProgress.delete(work)).catch(() => {});
  return work;
}

/** Runs the jobs side by side (or one after another), each isolated; resolves when all have ended. */
export async function runJobs(jobs: AnyJob[], options: RunOptions & { oneAfterAnother?: boolean }): Promise<JobsSummary> {
  const started = Date.now();
  let runs: JobRun[];
  if (options.oneAfterAnother) {
    runs = [];
    for (const job of jobs) {
      if (jobsState().shutdown.signal.aborted || options.signal?.aborted) break;
      runs.push(await runJob(job, { ...options, deadlineMs: Math.max(0, started + options.deadlineMs - Date.now()) }));
    }
  } else {
    runs = await Promise.all(jobs.map((job) => runJob(job, options)));
  }
  return { durationMs: Date.now() - started, busy: runs.some((run) => run.busy), jobs: runs };
}

/** The signal every run of the process gets: aborted by `stopJobs`. */
export function shutdownSignal(): AbortSignal {
  return jobsState().shutdown.signal;
}

/**
 * Shutdown: every run of the process is told to stop (a dispatch pass stops claiming, hands back what
 * it holds and gives requests in flight up to 5 s). Resolves when every run in progress has ended.
 * Then a later start (a restarted loop, a test) begins afresh; with `keepStopped`, nothing starts
 * until a registry is installed again: a drain a response scheduled for its next tick finds the jobs
 * stopped, where it would otherwise open the database the process is closing. A stop without it that
 * ends later (the loop's own, on the same signal) does not start them again.
 */
export async function stopJobs({ keepStopped = false }: { keepStopped?: boolean } = {}): Promise<void> {
  const s = jobsState();
  if (keepStopped) s.keptStopped = true;
  s.shutdown.abort();
  while (s.inProgress.size > 0) await Promise.allSettled([...s.inProgress]);
  if (!s.keptStopped && s.shutdown.signal.aborted) s.shutdown = new AbortController();
}
