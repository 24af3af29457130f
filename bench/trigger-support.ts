// Shared by the trigger benchmark and the reliability script: a Postgres database of their own,
// a production build, a `next start` server they can kill and restart, and seed data.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import postgres from "postgres";
import { ownProcess, signalTree } from "./processes";

export const ROOT = path.resolve(import.meta.dirname, "..");
// CI builds once into the default folder before running the scripts; locally they keep their own.
export const DIST_DIR = process.env.NEXT_DIST_DIR || (process.env.CI ? ".next" : ".next-trigger");
export const PORT = Number(process.env.BENCH_PORT ?? 3204);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const CRON_SECRET = "bench-only-cron-secret-0123456789";

/** `postgres://…/<name>`: the given DATABASE_URL's server with our own database name. */
export function benchDatabaseUrl(name: string): string {
  const base = new URL(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  base.pathname = `/${name}`;
  return base.toString();
}

/** The databases this process created with `freshDatabase`, dropped by `exitBench`. */
const createdDatabases = new Set<string>();

async function onAdminDatabase<T>(name: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = new URL(benchDatabaseUrl(name));
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

/**
 * The comment a bench puts on each database it creates: `npm run bench:all` drops, after a bench, only
 * the databases that carry that bench's run marker, never another run's made meanwhile.
 */
export const benchDatabaseComment = (run = process.env.BENCH_ALL_RUN ?? "standalone") => `sendstream bench ${run}`;

/** Marks a database this bench created (see `benchDatabaseComment`). */
export async function markBenchDatabase(sql: postgres.Sql, name: string): Promise<void> {
  await sql.unsafe(`comment on database "${name}" is '${benchDatabaseComment().replaceAll("'", "''")}'`);
}

/** Drops and recreates the database, then applies the migrations. */
export async function freshDatabase(name: string): Promise<string> {
  const url = benchDatabaseUrl(name);
  await onAdminDatabase(name, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
    await markBenchDatabase(sql, name);
  });
  createdDatabases.add(name);
  const migrated = spawnSync("npx", ["tsx", "db/cli.ts", "migrate"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: "inherit" });
  if (migrated.status !== 0) throw new Error("Migrations failed.");
  return url;
}

/** Drops the database (its connections too), unless BENCH_KEEP_DB=1 keeps it to look into. */
export async function dropBenchDatabase(name: string): Promise<void> {
  if (process.env.BENCH_KEEP_DB === "1") {
    console.log(`Kept the database ${name} (BENCH_KEEP_DB=1).`);
    return;
  }
  await onAdminDatabase(name, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
  createdDatabases.delete(name);
}

/**
 * Ends a benchmark however it went: drops the databases it created (BENCH_KEEP_DB=1 keeps them),
 * then exits with `code` (the processes it started are killed on exit, bench/processes.ts).
 */
export async function exitBench(code: number): Promise<never> {
  for (const name of [...createdDatabases]) {
    try {
      await dropBenchDatabase(name);
    } catch (error) {
      console.error(`Could not drop the database ${name}:`, error);
      code ||= 1;
    }
  }
  process.exit(code);
}

/** Builds into DIST_DIR unless a build is there (BENCH_BUILD=1 forces one). */
export function ensureBuild(): void {
  const buildId = path.join(ROOT, DIST_DIR, "BUILD_ID");
  if (fs.existsSync(buildId) && process.env.BENCH_BUILD !== "1") return;
  console.log(`Building into ${DIST_DIR} …`);
  buildInto(DIST_DIR);
}

/**
 * `next build` into another folder than `.next` adds that folder's types to tsconfig.json; the
 * benchmarks put the file back as it was, so running one leaves the working tree clean.
 */
export function buildInto(distDir: string): void {
  const tsconfig = path.join(ROOT, "tsconfig.json");
  const original = fs.readFileSync(tsconfig);
  try {
    const built = spawnSync("node", ["node_modules/next/dist/bin/next", "build"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_DIST_DIR: distDir },
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error("next build failed.");
  } finally {
    fs.writeFileSync(tsconfig, original);
  }
}

export interface Server {
  child: ChildProcess;
  /** SIGKILL: no graceful shutdown, nothing drained. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `nodeArgs` go to node itself (e.g. `--cpu-prof` to profile the server). */
export async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<Server> {
  const child = ownProcess(spawn("node", [...nodeArgs, "node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST_DIR,
      AUTH_SECRET: "bench-only-secret-0123456789abcdef0123456789",
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? "be0c".repeat(16),
      CRON_SECRET,
      APP_URL: BASE_URL,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  }));
  const log: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited:\n${log.join("")}`);
    try {
      const response = await fetch(`${BASE_URL}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      signalTree(child, "SIGKILL");
      throw new Error(`next start did not become healthy:\n${log.join("").slice(-4000)}`);
    }
    await sleep(250);
  }
  return {
    child,
    async kill() {
      signalTree(child, "SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => signalTree(child, "SIGKILL"))]);
      await exited;
    },
  };
}

/**
 * POSTs to `url` through one keep-alive agent without a connection limit; resolves with the status
 * once the answer is read. An open loop's client: `fetch` (undici) costs several times the CPU per
 * request, and on this machine's 2 cores, shared with the server and Postgres, that CPU came back as
 * latency (trigger open loop at 341/s: p50 8 ms, p99 255 ms with fetch; p50 2–4 ms, p99 17–39 ms with this).
 */
const POSTER_TIMEOUT_MS = 30_000;

export function poster(url: string, headers: Record<string, string>): (body: string) => Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const target = new URL(url);
  return (body) =>
    new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          headers: { ...headers, "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.once("end", () => resolve(response.statusCode ?? 0));
          response.once("error", reject);
        },
      );
      // An answer that never comes fails the request (and the bench) instead of holding it forever.
      request.setTimeout(POSTER_TIMEOUT_MS, () => request.destroy(new Error(`No answer from ${url} within ${POSTER_TIMEOUT_MS / 1000} s.`)));
      request.once("error", reject);
      request.end(body);
    });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `count` distinct valid UK mobile numbers in E.164. */
export function phoneNumbers(count: number, start = 0): string[] {
  return Array.from({ length: count }, (_, i) => `+447911${String(100000 + ((start + i) % 900000)).padStart(6, "0")}`);
}

/**
 * Where figures go: BENCH_RESULTS_FILE (a path; `npm run bench:all -- --quick` points it at a
 * temporary file, so a smoke run never replaces the real figures), else bench/RESULTS.md.
 */
export const RESULTS_FILE = path.resolve(ROOT, process.env.BENCH_RESULTS_FILE || path.join("bench", "RESULTS.md"));

/** Replaces the part of RESULTS_FILE between this section's markers (or appends it). */
export function writeResultsSection(section: string, markdown: string): void {
  const file = RESULTS_FILE;
  const start = `<!-- ${section}:start -->`;
  const end = `<!-- ${section}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmark results\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? current.slice(0, from) + block + current.slice(to + end.length) : `${current.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux builds this runs on). */
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, in seconds. */
  cpu: number;
}

function procStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const comm = text.slice(text.indexOf("(") + 1, close);
      const fields = text.slice(close + 2).split(" ");
      // After the comm: state(0) ppid(1) … utime(11) stime(12).
      stats.push({ pid: Number(entry), ppid: Number(fields[1]), comm, cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // The process ended while being read.
    }
  }
  return stats;
}

export interface CpuSplit {
  /**
   * CPU seconds of the server's process tree, of Postgres and of this process (the load generator).
   * Postgres: every `postgres` process, or with `database` given, its backends and autovacuum
   * workers plus the shared writers (WAL writer, checkpointer, background writer), so that other
   * databases' clients on a shared server are not billed to the run.
   */
  server: number;
  postgres: number;
  client: number;
}

/** CPU used by the server, Postgres and this process while `work` runs. */
export async function measureCpu<T>(serverPid: number, work: () => Promise<T>, database?: string): Promise<{ result: T; cpu: CpuSplit }> {
  const ours = (pid: number) => {
    if (!database) return true;
    try {
      const title = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      return /walwriter|checkpointer|background writer/.test(title) || title.includes(` ${database} `);
    } catch {
      return false;
    }
  };
  const take = () => {
    const stats = procStats();
    const tree = new Set([serverPid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of stats) {
        if (tree.has(s.ppid) && !tree.has(s.pid)) {
          tree.add(s.pid);
          grew = true;
        }
      }
    }
    const sum = (keep: (s: ProcStat) => boolean) => stats.filter(keep).reduce((total, s) => total + s.cpu, 0);
    const own = process.cpuUsage();
    return { server: sum((s) => tree.has(s.pid)), postgres: sum((s) => s.comm === "postgres" && ours(s.pid)), client: (own.user + own.system) / 1e6 };
  };
  const before = take();
  const result = await work();
  const after = take();
  // Postgres backends that ended during the run take their time with them; the run keeps its pool open.
  return { result, cpu: { server: after.server - before.server, postgres: after.postgres - before.postgres, client: after.client - before.client } };
}

export interface ProfileLine {
  selfPercent: number;
  name: string;
  where: string;
}

/** Self time per function of a `.cpuprofile`, highest first (idle and GC included, as they are). */
export function summariseProfile(file: string, top = 15): ProfileLine[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
  };
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) continue;
    const where = frame.url ? `${frame.url.replace(/^file:\/\//, "").replace(`${ROOT}/`, "")}:${frame.lineNumber + 1}` : "";
    const key = `${frame.functionName || "(anonymous)"}\t${where}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length || 1;
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, count]) => {
      const [name, where] = key.split("\t");
      return { selfPercent: (100 * count) / total, name: name!, where: where! };
    });
}
