// The processes a benchmark starts (`next start`, a fake Graph API, dispatchers) end with it: when it
// is interrupted (SIGINT, SIGTERM) they are stopped before it exits, and when it exits any other way
// (a failed check, a thrown error) whatever is still running is killed. A failed run used to leave
// its server running, with its database connections open.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";

const owned = new Set<ChildProcess>();
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
/** A server stops by itself within 8 s of SIGTERM (lib/shutdown.ts); then it is killed. */
const STOP_GRACE_MS = 10_000;

/** The pid and its descendants (`next start` may run workers of its own). */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = fs.readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Resident memory, in bytes, of the pid and its descendants (read from /proc). */
export function rssOfTree(pid: number): number {
  let total = 0;
  for (const current of processTree(pid)) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${current}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

export function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // Children first: the tree cannot be read once its root is gone.
  for (const pid of processTree(child.pid).reverse()) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

let installed = false;

function install() {
  if (installed) return;
  installed = true;
  process.on("exit", () => {
    for (const child of owned) signalTree(child, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`${signal}: stopping ${owned.size} process(es) this benchmark started…`);
      const children = [...owned];
      const stopped = Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve)))));
      for (const child of children) signalTree(child, "SIGTERM");
      void Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))]).then(() => process.exit(EXIT_CODES[signal]));
    });
  }
}

/** SIGTERM to the process tree, SIGKILL if it is still running after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  signalTree(child, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  signalTree(child, "SIGKILL");
}

/** Ties `child` to this process's life (see above). Returns it. */
export function ownProcess<T extends ChildProcess>(child: T): T {
  install();
  owned.add(child);
  child.once("exit", () => owned.delete(child));
  return child;
}
