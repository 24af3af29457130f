// `npm run bench:all [-- --quick] [-- names…]`: every benchmark, one after another, each as a child
// process in its own process group with a time limit. One production build first (into NEXT_DIST_DIR,
// default .next-bench; --skip-build does not build first), which every bench then reuses.
//   --quick: small sizes (each bench's own knobs), 60 s a bench, figures into a temporary file
//            (BENCH_RESULTS_FILE, kept only when you set it): bench/RESULTS.md is never touched.
//            A smoke check, not a measurement; not run in CI.
//   without: full sizes, figures into bench/RESULTS.md, BENCH_LIMIT_S (1800) a bench.
// After each bench, whatever it left is cleaned up and reported (and fails the run): a process it
// started still running (found by a marker in its environment; SIGTERM, then SIGKILL), a server still
// listening on its port, a `sendstream_bench_*` database it created and did not drop (dropped here; it
// knows its own by the run marker in the database's comment, trigger-support's `markBenchDatabase`),
// a change in the working tree. A bench over its limit is stopped the same way (its process group:
// SIGTERM, 10 s, SIGKILL). Prints a table at the end; exits 1 if any bench failed, ran over or left
// something behind.
//
// Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PORT (3600: the
// first bench's port, the next gets 3601, …), NEXT_DIST_DIR, BENCH_LIMIT_S, BENCH_RESULTS_FILE.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { benchDatabaseComment } from "./trigger-support";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const SKIP_BUILD = args.includes("--skip-build");
const ONLY = args.filter((arg) => !arg.startsWith("--"));
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next-bench";
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 3600);
const LIMIT_S = QUICK ? 60 : Number(process.env.BENCH_LIMIT_S ?? 1800);
const STOP_GRACE_MS = 10_000;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OWN_RESULTS = QUICK && !process.env.BENCH_RESULTS_FILE;
const RESULTS_FILE = process.env.BENCH_RESULTS_FILE || (QUICK ? path.join(os.tmpdir(), `sendstream-bench-all-${process.pid}.md`) : path.join(ROOT, "bench", "RESULTS.md"));
const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;

/** Benchmarks that are not `bench:*` scripts of package.json. */
const EXTRA_FILES = ["bench/webhook-statuses.ts"];
const NOT_BENCHMARKS = new Set(["bench:all"]);

interface QuickSizes {
  env?: Record<string, string>;
  args?: string[];
}

/** Small sizes for a smoke run, through each bench's own knobs (see each file's header). */
const QUICK_SIZES: Record<string, QuickSizes> = {
  trigger: { env: { BENCH_DURATION: "2", BENCH_WARMUP: "1", BENCH_CONNECTIONS: "10" } },
  export: { env: { BENCH_ROWS: "50000", BENCH_RUNS: "1" } },
  dispatch: { env: { BENCH_MESSAGES: "1000", BENCH_SINGLE_SECONDS: "3", BENCH_BULK_MESSAGES: "240" } },
  import: { env: { BENCH_ROWS: "20000" } },
  "csv-long-line": { env: { BENCH_CELL_MB: "5" } },
  bulk: { env: { BULK_SNAPSHOT_CONTACTS: "20000", BULK_RECIPIENTS: "800" } },
  login: {},
  segments: { env: { BENCH_ROWS: "20000", BENCH_OTHER_ROWS: "2000", BENCH_RUNS: "2" } },
  inbox: { env: { BENCH_CONVERSATIONS: "500", BENCH_MESSAGES: "5000", BENCH_LONG: "200", BENCH_RUNS: "5", BENCH_LIVE_SECONDS: "5" } },
  journeys: { env: { BENCH_QUICK: "1", BENCH_RUNS: "1000", BENCH_WINDOW: "5", BENCH_LEAD: "5", BENCH_BASELINE: "3", BENCH_EXITS: "300", BENCH_EXIT_RATE: "100", BENCH_DRAIN: "15" } },
  serverless: { args: ["--quick", "--skip-build"], env: { BENCH_CONTACTS: "800" } },
  scale: { args: ["--quick", "--skip-build"], env: { BENCH_RUNS: "1", BENCH_TRIGGER_RATE: "20" } },
  "webhook-statuses": { env: { BENCH_STATUS_MESSAGES: "10000" } },
  growth: { env: { BENCH_GROWTH_REQUESTS: "200", BENCH_GROWTH_ROWS: "2000" } },
};

interface Bench {
  name: string;
  file: string;
}

/** What exists now: the `bench:*` scripts of package.json (`tsx bench/<file>.ts`) and the extra files. */
function benches(): Bench[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const list: Bench[] = [];
  for (const [script, command] of Object.entries(pkg.scripts)) {
    if (!script.startsWith("bench:") || NOT_BENCHMARKS.has(script)) continue;
    const file = /^tsx (bench\/\S+\.ts)$/.exec(command)?.[1];
    if (!file) {
      console.warn(`${script}: "${command}" is not \`tsx bench/<file>.ts\`; skipped.`);
      continue;
    }
    list.push({ name: script.slice("bench:".length), file });
  }
  for (const file of EXTRA_FILES) {
    if (fs.existsSync(path.join(ROOT, file)) && !list.some((bench) => bench.file === file)) list.push({ name: path.basename(file, ".ts"), file });
  }
  return list.filter((bench) => ONLY.length === 0 || ONLY.includes(bench.name));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Processes whose environment carries this bench's marker: it and everything it started, detached or not. */
function markedProcesses(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`BENCH_ALL_RUN=${marker}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** SIGTERM, then SIGKILL after the grace period to those still there. Returns what was found at first. */
async function stopMarked(marker: string): Promise<number[]> {
  const found = markedProcesses(marker);
  if (found.length === 0) return found;
  for (const pid of found) trySignal(pid, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  while (Date.now() < deadline && markedProcesses(marker).length > 0) await sleep(200);
  for (const pid of markedProcesses(marker)) trySignal(pid, "SIGKILL");
  return found;
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Whether anything listens on the TCP port (IPv4 or IPv6), from /proc/net. */
function listening(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      for (const line of fs.readFileSync(table, "utf8").split("\n").slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[3] === "0A" && fields[1]?.endsWith(`:${hex}`)) return true;
      }
    } catch {
      // no such table
    }
  }
  return false;
}

/** The `sendstream_bench_*` databases, each with its comment (the run marker of the bench that made it). */
async function benchDatabases(): Promise<Map<string, string | null> | null> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ datname: string; comment: string | null }[]>`
      select datname, shobj_description(oid, 'pg_database') as comment from pg_database where datname like 'sendstream\\_bench\\_%'`;
    return new Map(rows.map((row) => [row.datname, row.comment]));
  } catch (error) {
    console.error("Could not list the databases:", error);
    return null;
  } finally {
    await sql.end();
  }
}

async function dropDatabase(name: string): Promise<void> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await sql.end();
  }
}

/** `git status --porcelain` lines (the results file left out when it is what the run writes). */
function treeChanges(): Set<string> {
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" });
  const results = path.relative(ROOT, RESULTS_FILE);
  return new Set(status.stdout.split("\n").filter((line) => line.trim() && line.slice(3) !== results));
}

interface Outcome {
  name: string;
  seconds: number;
  code: number | string;
  over: boolean;
  leftovers: string[];
}

let current: { pid: number } | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // Hand the signal on to the bench's group; its own handlers stop what it started.
    if (current) trySignal(-current.pid, "SIGTERM");
    setTimeout(() => {
      if (current) trySignal(-current.pid, "SIGKILL");
      process.exit(130);
    }, STOP_GRACE_MS).unref();
    if (!current) process.exit(130);
  });
}

async function run(bench: Bench, port: number): Promise<Outcome> {
  const marker = `${RUN_ID}-${bench.name}`;
  const sizes = QUICK ? (QUICK_SIZES[bench.name] ?? { env: { BENCH_QUICK: "1" }, args: ["--quick"] }) : {};
  if (QUICK && !QUICK_SIZES[bench.name]) console.warn(`${bench.name}: no quick sizes known here; passing --quick and BENCH_QUICK=1.`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_DATABASE_URL: ADMIN_URL,
    NEXT_DIST_DIR: DIST_DIR,
    BENCH_PORT: String(port),
    BENCH_RESULTS_FILE: RESULTS_FILE,
    BENCH_ALL_RUN: marker,
    ...sizes.env,
  };
  delete env.BENCH_BUILD;
  delete env.BENCH_KEEP_DB;
  const databasesBefore = await benchDatabases();
  const treeBefore = treeChanges();
  const started = performance.now();
  console.log(`\n=== ${bench.name}: ${bench.file} ${(sizes.args ?? []).join(" ")} ${Object.entries(sizes.env ?? {}).map(([k, v]) => `${k}=${v}`).join(" ")} (port ${port}, limit ${LIMIT_S} s)`);
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [bench.file, ...(sizes.args ?? [])], { cwd: ROOT, env, stdio: "inherit", detached: true });
  current = { pid: child.pid! };
  let over = false;
  let kill: NodeJS.Timeout | undefined;
  const limit = setTimeout(() => {
    over = true;
    console.error(`${bench.name}: over its ${LIMIT_S} s; SIGTERM to its process group.`);
    trySignal(-child.pid!, "SIGTERM");
    kill = setTimeout(() => trySignal(-child.pid!, "SIGKILL"), STOP_GRACE_MS);
  }, LIMIT_S * 1000);
  const code = await new Promise<number | string>((resolve) => child.once("exit", (exitCode, signal) => resolve(exitCode ?? signal ?? "?")));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(limit);
  current = null;

  const leftovers: string[] = [];
  // Stopped over its limit: what it started had SIGTERM too, and gets its grace to finish.
  if (over) for (const deadline = Date.now() + STOP_GRACE_MS; Date.now() < deadline && markedProcesses(marker).length > 0; ) await sleep(200);
  clearTimeout(kill);
  const stray = await stopMarked(marker);
  if (stray.length > 0) leftovers.push(`processes ${stray.join(", ")} (stopped)`);
  if (listening(port)) leftovers.push(`port ${port} still listening`);
  const databasesAfter = await benchDatabases();
  if (databasesBefore && databasesAfter) {
    for (const [name, comment] of databasesAfter) {
      if (databasesBefore.has(name)) continue;
      // Made meanwhile by something else (another run's bench): reported, left alone.
      if (comment !== benchDatabaseComment(marker)) {
        leftovers.push(`database ${name} (appeared during the bench, not marked as its own: left alone)`);
        continue;
      }
      try {
        await dropDatabase(name);
        leftovers.push(`database ${name} (dropped)`);
      } catch (error) {
        leftovers.push(`database ${name} (could not drop: ${String(error)})`);
      }
    }
  }
  for (const change of treeChanges()) if (!treeBefore.has(change)) leftovers.push(`working tree: ${change.trim()}`);
  return { name: bench.name, seconds, code, over, leftovers };
}

function buildOnce(): void {
  // The same build as the benches' own (trigger-support's buildInto): tsconfig.json is put back after it.
  const tsconfig = path.join(ROOT, "tsconfig.json");
  const original = fs.readFileSync(tsconfig);
  const started = performance.now();
  try {
    console.log(`Building once into ${DIST_DIR} (not counted in any bench's time)…`);
    const built = spawnSync("node", ["node_modules/next/dist/bin/next", "build"], { cwd: ROOT, env: { ...process.env, NEXT_DIST_DIR: DIST_DIR }, stdio: "inherit" });
    if (built.status !== 0) throw new Error("next build failed.");
  } finally {
    fs.writeFileSync(tsconfig, original);
  }
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

async function main(): Promise<number> {
  const list = benches();
  if (list.length === 0) throw new Error("No benchmark to run.");
  console.log(`${QUICK ? "Quick smoke run" : "Full run"} of ${list.map((bench) => bench.name).join(", ")}; figures into ${RESULTS_FILE}.`);
  if (SKIP_BUILD) console.log(`No build first: each bench uses the one in ${DIST_DIR} (and builds there if it finds none).`);
  else buildOnce();
  const outcomes: Outcome[] = [];
  for (const [index, bench] of list.entries()) outcomes.push(await run(bench, FIRST_PORT + index));
  if (OWN_RESULTS) fs.rmSync(RESULTS_FILE, { force: true });

  const failed = (o: Outcome) => o.code !== 0 || o.over || o.leftovers.length > 0;
  const width = Math.max(5, ...outcomes.map((o) => o.name.length));
  console.log(`\n${QUICK ? "Quick" : "Full"} run, limit ${LIMIT_S} s a bench, ${new Date().toISOString()}, load average ${os.loadavg().map((n) => n.toFixed(1)).join(" / ")}:`);
  console.log(`${"bench".padEnd(width)}  seconds  exit  over  left behind`);
  for (const o of outcomes) {
    console.log(`${o.name.padEnd(width)}  ${o.seconds.toFixed(1).padStart(7)}  ${String(o.code).padStart(4)}  ${(o.over ? "OVER" : "-").padStart(4)}  ${o.leftovers.join("; ") || "-"}`);
  }
  const bad = outcomes.filter(failed);
  console.log(bad.length === 0 ? "All passed." : `Failed, over the limit or left something behind: ${bad.map((o) => o.name).join(", ")}.`);
  return bad.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
