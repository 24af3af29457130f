// A server told to stop (SIGTERM from Docker, systemd or a benchmark; SIGINT from a terminal) stops
// within a bounded time whatever its requests and the database do. `next start` stops listening and
// then waits for every request in flight: one that waits on the database forever kept the process up
// for good. Orchestrators send SIGKILL after a grace period (Docker's is 10 s), which would skip
// cleanup anyway: the database is closed a little before the deadline, and at the deadline the
// process exits.
// Next's own signal handler exits (process.exit) as soon as its HTTP server has closed, which at
// idle is at once: work outside requests (the job loop handing back the messages it claimed, the
// request log's last entries) would be cut off. Until that work has ended, an exit waits for it.

/** Exit this long after the first signal at the latest (well inside Docker's 10 s grace). */
export const SHUTDOWN_DEADLINE_MS = 8_000;
/** The database pool is closed this long before the deadline (open transactions roll back). */
const CLOSE_DATABASE_BEFORE_DEADLINE_MS = 2_000;

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export interface ShutdownDeadline {
  deadlineMs?: number;
  closeDatabase: () => Promise<void>;
  /**
   * Run on the signal and once more when an exit is asked (for what requests that ended meanwhile
   * started); the exit waits for both. The deadline does not.
   */
  finishFirst?: () => Promise<unknown>;
  exit?: (code: number) => void;
}

/** Installs the deadline once per process (Next may load this module more than once). */
export function installShutdownDeadline({ deadlineMs = SHUTDOWN_DEADLINE_MS, closeDatabase, finishFirst, exit }: ShutdownDeadline): void {
  const global = globalThis as { __sendstreamShutdownDeadline?: boolean };
  if (global.__sendstreamShutdownDeadline) return;
  global.__sendstreamShutdownDeadline = true;
  const exitNow = process.exit.bind(process);
  const deadlineExit = exit ?? exitNow;
  let started = false;
  const onSignal = (signal: keyof typeof EXIT_CODES) => {
    if (started) return;
    started = true;
    if (finishFirst) {
      const finished = finishFirst().catch(() => {});
      process.exit = ((code?: number | string | null) =>
        void finished
          .then(() => finishFirst())
          .catch(() => {})
          .then(() => exitNow(code))) as typeof process.exit;
    }
    // Unreferenced: a server that finishes its cleanup earlier exits as it would have.
    setTimeout(() => void closeDatabase().catch(() => {}), Math.max(0, deadlineMs - CLOSE_DATABASE_BEFORE_DEADLINE_MS)).unref();
    setTimeout(() => {
      console.error(`▲ Sendstream: still running ${deadlineMs / 1000} s after ${signal}; exiting now.`);
      deadlineExit(EXIT_CODES[signal]);
    }, deadlineMs).unref();
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => onSignal(signal));
}
