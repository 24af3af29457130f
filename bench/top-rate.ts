// `npm run bench:top-rate`: Meta's top rate on one number, on Postgres and `next start`.
// One WhatsApp sender at 1,000 messages/s sends into a local fake Graph API (its own process,
// answering each request after 50–150 ms, uniform): a bulk campaign to TOP_RATE_CONTACTS (200,000)
// contacts at the sender's full rate, while 20 trigger requests a second go to the same number through
// the trigger endpoint (HTTP to `next start`, whose in-process loop dispatches). Then the same with a
// second dispatcher process (`lib/engine/worker-main.ts`, what `npm run worker` runs) beside the server,
// for a second campaign to TOP_RATE_SECOND_CONTACTS (100,000) of them.
// Measured per phase:
//   - sustained rate: sends arriving at the fake for the number between the first bulk send + RAMP and
//     the last bulk send − RAMP (5 s; 2 s with --quick), divided by that window; the slowest 1-second
//     bucket of the window too;
//   - most arrivals at the fake in any 1-second window (sliding, ms arrival times; ≤ 1,000);
//   - triggers: queued (`created_at`) → sent (`sent_at`) p50/p99/max, and the HTTP answer's p50/p99;
//   - exactly once: arrivals at the fake = messages sent, one distinct wamid each;
//   - CPU per message: the dispatching processes' trees (/proc) and Postgres (the backends of this
//     database, from pg_stat_activity's pids and /proc, sampled every second so that a backend that
//     ends during the phase still counts), over every message the phase sent.
// Results replace the "top-rate" section of bench/RESULTS.md. The database is dropped and every
// process started here is stopped, whether the run passes or fails.
//
// Flags: --quick (5,000 contacts in each phase, so that a phase outlasts its two ramps: about a minute with a
// build in place), --skip-build (use the build in NEXT_DIST_DIR, default .next-rate; without it the app is built first).
// TOP_RATE_PROFILE=1 runs the server under `node --cpu-prof` (a diagnostic: it slows the server) and
// prints the top of its profile.
// Env: BENCH_DATABASE_URL / DATABASE_URL (server to create `sendstream_bench_top_rate` on), BENCH_PORT
// (3560), TOP_RATE_CONTACTS, TOP_RATE_SECOND_CONTACTS, TOP_RATE_TRIGGERS_PER_SECOND (20).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { ownProcess, processTree, stopProcess } from "./processes";

const QUICK = process.argv.includes("--quick");
const PROFILE = process.env.TOP_RATE_PROFILE === "1";
const SKIP_BUILD = process.argv.includes("--skip-build");
process.env.NEXT_DIST_DIR ||= ".next-rate";
process.env.BENCH_PORT ??= "3560";
process.env.ENCRYPTION_KEY ??= "be0c".repeat(16);

const DB_NAME = "sendstream_bench_top_rate";
const THROUGHPUT = 1_000;
const CONTACTS = Number(process.env.TOP_RATE_CONTACTS ?? (QUICK ? 5_000 : 200_000));
const SECOND_CONTACTS = Math.min(CONTACTS, Number(process.env.TOP_RATE_SECOND_CONTACTS ?? (QUICK ? 5_000 : 100_000)));
const TRIGGERS_PER_SECOND = Number(process.env.TOP_RATE_TRIGGERS_PER_SECOND ?? 20);
/** The fake Graph API's scheduling priority (nice value; negative is sooner, and needs root). */
const FAKE_PRIORITY = Number(process.env.TOP_RATE_FAKE_PRIORITY ?? (os.userInfo().uid === 0 ? -10 : 0));
const LATENCY = { min: 50, max: 150 };
const RAMP_MS = QUICK ? 2_000 : 5_000;
const TARGETS = { sustained: 950, peak: THROUGHPUT, triggerP99S: 2 };
const PHONE_NUMBER_ID = "700100100100100";
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** utime + stime of a process, in seconds (null once it is gone). */
function processCpu(pid: number): number | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

/**
 * CPU seconds of a set of processes over a phase: sampled every second, so a process that ends in
 * between still counts up to its last sample (and one that starts counts from its start).
 */
class CpuMeter {
  private first = new Map<number, number>();
  private last = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pids: () => Promise<number[]>) {}

  private async sample(initial: boolean) {
    for (const pid of await this.pids()) {
      const cpu = processCpu(pid);
      if (cpu === null) continue;
      if (!this.first.has(pid)) this.first.set(pid, initial ? cpu : 0);
      this.last.set(pid, cpu);
    }
  }

  async start() {
    await this.sample(true);
    this.timer = setInterval(() => void this.sample(false).catch(() => {}), 1000);
  }

  async stop(): Promise<{ seconds: number; processes: number }> {
    if (this.timer) clearInterval(this.timer);
    await this.sample(false);
    let seconds = 0;
    for (const [pid, cpu] of this.last) seconds += cpu - (this.first.get(pid) ?? 0);
    return { seconds, processes: this.last.size };
  }
}

interface PhaseResult {
  name: string;
  processes: string;
  recipients: number;
  bulkSent: number;
  triggersAsked: number;
  triggersAccepted: number;
  triggersSent: number;
  triggersRefused: string;
  httpP50: number;
  httpP99: number;
  arrivals: number;
  distinctWamids: number;
  sentInPhase: number;
  firstToLastS: number;
  windowS: number;
  sustained: number;
  sustainedBulk: number;
  slowestSecond: number;
  peak: number;
  /** Most sends let go (`sent_at`) in any 1-second window. */
  sentPeak: number;
  /** From a send's `sent_at` to its arrival at the fake (the in-flight mark, the request's way, the fake's event loop), ms. */
  toFake: { p50: number; p99: number; max: number };
  triggerP50: number;
  triggerP99: number;
  triggerMax: number;
  cpu: { dispatchers: number; postgres: number; postgresBackends: number; allPostgres: number; fakeGraph: number; loadGenerator: number };
  /** Committed transactions (one per statement outside explicit transactions) and rows written, per message. */
  db: { transactions: number; rowsWritten: number };
  elapsedS: number;
  timedOut: boolean;
}

async function main() {
  const support = await import("./trigger-support");
  const { BASE_URL, DIST_DIR, ROOT, freshDatabase, benchDatabaseUrl, buildInto, startServer, phoneNumbers, sleep, summariseProfile, writeResultsSection } = support;
  if (SKIP_BUILD) {
    if (!fs.existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) throw new Error(`--skip-build: no build in ${DIST_DIR}; run without it once.`);
  } else {
    console.log(`Building into ${DIST_DIR} …`);
    buildInto(DIST_DIR);
  }

  const url = await freshDatabase(DB_NAME);
  // Interrupted (SIGINT, SIGTERM): the database goes too, before processes.ts stops the children and
  // exits (a synchronous drop, so it is done whatever runs next; `with (force)` ends their sessions).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      const admin = new URL(url);
      admin.pathname = "/postgres";
      spawnSync("psql", [admin.toString(), "-qc", `drop database if exists "${DB_NAME}" with (force)`], { stdio: "inherit" });
    });
  }
  process.env.DATABASE_URL = url;
  (process.env as Record<string, string>).NODE_ENV ??= "test";
  const children: ChildProcess[] = [];
  const { getDb, closeDb } = await import("@/db");
  // A connection of its own for the samplers (its backend is left out of Postgres's figures).
  const probe = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const { sql } = await import("drizzle-orm");
    const { queryRows } = await import("@/db/rows");
    const { templates } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const { createWhatsAppWorkspace, peakInWindow } = await import("./reliability-support");
    const { ORDER_MESSAGE_CONFIG } = await import("@/lib/testing/trigger-factories");
    await import("@/lib/engine/campaign-kinds");
    const { createCampaign } = await import("@/lib/campaigns/service");
    const { launchBulkCampaign } = await import("@/lib/bulk/launch");
    const { newId } = await import("@/lib/crypto/random");
    const db = await getDb();

    // The fake Graph API, in its own process as Meta's is.
    const fake = ownProcess(
      spawn(process.execPath, ["--import", "tsx", "bench/dispatch-fake-graph.ts"], {
        cwd: ROOT,
        env: { ...process.env, BENCH_GRAPH_LATENCY_MS: String(LATENCY.min), BENCH_GRAPH_LATENCY_MAX_MS: String(LATENCY.max) },
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    children.push(fake);
    // Meta's servers do not share our cores: the fake takes the CPU before our processes do, so that
    // the arrival times it records are not delayed (and bunched) by its turn on the machine.
    if (FAKE_PRIORITY !== 0) os.setPriority(fake.pid!, FAKE_PRIORITY);
    const graphUrl = await new Promise<string>((resolve, reject) => {
      fake.stdout!.once("data", (data) => resolve(String(data).trim()));
      fake.once("exit", (code) => reject(new Error(`The fake Graph API exited (${code}).`)));
    });
    const graph = async <T>(what: "/__stats" | "/__reset" | "/__count" | "/__wamids") => (await (await fetch(`${graphUrl}${what}`)).json()) as T;

    console.log(`Seeding ${CONTACTS.toLocaleString("en-US")} contacts …`);
    const ws = await createWhatsAppWorkspace({ phoneNumberId: PHONE_NUMBER_ID, throughput: THROUGHPUT });
    const [template] = await db.select({ id: templates.id }).from(templates).where(eq(templates.workspaceId, ws.workspaceId));
    const lists = [newId("lst"), newId("lst")];
    await queryRows(db, sql`insert into contact_lists (id, workspace_id, name) values (${lists[0]}, ${ws.workspaceId}, 'Everyone'), (${lists[1]}, ${ws.workspaceId}, 'Some')`);
    await queryRows(
      db,
      sql`insert into contacts (id, workspace_id, phone_number, name, attributes)
        select 'ctc_top' || i, ${ws.workspaceId}, '+1415' || lpad(i::text, 7, '0'), 'Customer ' || i, jsonb_build_object('order_id', 'B' || i)
        from generate_series(1, ${CONTACTS}) i`,
    );
    await queryRows(db, sql`insert into contact_list_members (list_id, contact_id) select ${lists[0]}, 'ctc_top' || i from generate_series(1, ${CONTACTS}) i`);
    await queryRows(db, sql`insert into contact_list_members (list_id, contact_id) select ${lists[1]}, 'ctc_top' || i from generate_series(1, ${SECOND_CONTACTS}) i`);
    await queryRows(db, sql`analyze contacts`);
    await queryRows(db, sql`analyze contact_list_members`);
    const campaignIds: string[] = [];
    for (const [i, listId] of lists.entries()) {
      const campaign = await createCampaign(db, ws.workspaceId, {
        kind: "bulk",
        name: `Top rate ${i + 1}`,
        audience: { listIds: [listId!], segmentIds: [] },
        templateId: template!.id,
        messageConfig: ORDER_MESSAGE_CONFIG,
        sendRatePerSecond: THROUGHPUT,
      });
      campaignIds.push(campaign.id);
    }

    // The triggers come at 20 a second, the default key limit's own rate (1,200 a minute): a minute that caught one request
    // early or late would refuse it, and the limit is not what this bench measures.
    const serverEnv = { DATABASE_URL: url, WHATSAPP_GRAPH_URL: graphUrl, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!, TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" };
    const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-top-rate-prof-")) : null;
    const server = await startServer(serverEnv, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
    children.push(server.child);
    const [probePid] = await probe<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const backendPids = async () =>
      (await probe<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${DB_NAME} and pid <> ${probePid!.pid}`).map((r) => r.pid);
    const allPostgresPids = async () =>
      fs
        .readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .map(Number)
        .filter((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
          } catch {
            return false;
          }
        });
    let triggerSeq = 0;
    const triggerPhones = phoneNumbers(200_000);

    async function phase(name: string, campaignId: string, recipients: number, dispatchers: ChildProcess[]): Promise<PhaseResult> {
      console.log(`\n== ${name}: ${recipients.toLocaleString("en-US")} recipients at ${THROUGHPUT}/s, ${TRIGGERS_PER_SECOND} triggers/s`);
      await graph("/__reset");
      const dispatcherCpu = new CpuMeter(async () => dispatchers.flatMap((child) => processTree(child.pid!)));
      const postgresCpu = new CpuMeter(backendPids);
      const allPostgresCpu = new CpuMeter(allPostgresPids);
      const fakeCpu = new CpuMeter(async () => [fake.pid!]);
      const ownCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
      const ownBefore = ownCpu();
      const dbStats = async () => {
        const [row] = await probe<{ xacts: string; rows: string }[]>`select (xact_commit + xact_rollback)::text as xacts, (tup_inserted + tup_updated + tup_deleted)::text as rows
          from pg_stat_database where datname = ${DB_NAME}`;
        return { xacts: Number(row?.xacts ?? 0), rows: Number(row?.rows ?? 0) };
      };
      const dbBefore = await dbStats();
      await Promise.all([dispatcherCpu.start(), postgresCpu.start(), allPostgresCpu.start(), fakeCpu.start()]);
      const phaseStart = new Date();
      const startedAt = performance.now();
      await launchBulkCampaign(db, ws.workspaceId, campaignId);
      // Triggers: an open loop of HTTP requests to the trigger endpoint, one every 1/rate s.
      let stopTriggers = false;
      const httpTimes: number[] = [];
      let asked = 0;
      let accepted = 0;
      /** Trigger requests without a 2xx answer, by HTTP status or error. */
      const refused = new Map<string, number>();
      const refuse = (why: string) => void refused.set(why, (refused.get(why) ?? 0) + 1);
      const pending = new Set<Promise<void>>();
      const producer = (async () => {
        const interval = 1000 / TRIGGERS_PER_SECOND;
        let next = performance.now();
        while (!stopTriggers) {
          next += interval;
          asked++;
          const phone = triggerPhones[triggerSeq++ % triggerPhones.length]!;
          const sentAt = performance.now();
          const request = fetch(`${BASE_URL}/api/campaigns/${ws.campaignId}/trigger`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": ws.apiKey },
            body: JSON.stringify({ phone, order: `ORD-${triggerSeq}`, first_name: "Bench" }),
          })
            .then(async (response) => {
              await response.arrayBuffer();
              httpTimes.push(performance.now() - sentAt);
              if (response.ok) accepted++;
              else refuse(`HTTP ${response.status}`);
            })
            .catch((error: unknown) => refuse(error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)))
            .finally(() => pending.delete(request));
          pending.add(request);
          const wait = next - performance.now();
          if (wait > 0) await sleep(wait);
        }
      })();
      // Done once the fake has seen every recipient and every accepted trigger (read at the fake: no
      // query of ours in Postgres's figures).
      const limitMs = (recipients / 900) * 2_000 + 60_000;
      let timedOut = false;
      for (;;) {
        await sleep(1000);
        const { count } = await graph<{ count: number }>("/__count");
        const elapsed = performance.now() - startedAt;
        if (Math.round(elapsed / 1000) % 5 === 0) console.log(`  ${(elapsed / 1000).toFixed(0)} s: ${count} at the fake`);
        if (count >= recipients + accepted) break;
        if (elapsed > limitMs) {
          timedOut = true;
          console.log("Giving up: the send is far behind.");
          break;
        }
      }
      stopTriggers = true;
      await producer;
      await Promise.all(pending);
      // The last triggers' sends.
      const deadline = performance.now() + 5_000;
      while (performance.now() < deadline && (await graph<{ count: number }>("/__count")).count < recipients + accepted) await sleep(100);
      const elapsedS = (performance.now() - startedAt) / 1000;
      const [dispatcherSeconds, postgresSeconds, allPostgresSeconds, fakeSeconds] = await Promise.all([dispatcherCpu.stop(), postgresCpu.stop(), allPostgresCpu.stop(), fakeCpu.stop()]);
      const ownSeconds = ownCpu() - ownBefore;
      await sleep(1_000); // pg_stat_database is flushed about every second
      const dbAfter = await dbStats();

      const arrivals = ((await graph<Record<string, number[]>>("/__stats"))[PHONE_NUMBER_ID] ?? []).sort((a, b) => a - b);
      const bulkTimes = (
        await queryRows<{ t: string | number }>(db, sql`select (extract(epoch from sent_at) * 1000)::float8 as t from messages where campaign_id = ${campaignId} and sent_at is not null`)
      )
        .map((r) => Number(r.t))
        .sort((a, b) => a - b);
      // The moments the dispatchers let each send go (bulk and triggers): the pacing's own record, before the
      // transport and the fake's event loop, which can bunch arrivals.
      const sends = await queryRows<{ wamid: string; t: string | number }>(
        db,
        sql`select wamid, (extract(epoch from sent_at) * 1000)::float8 as t from messages
          where workspace_id = ${ws.workspaceId} and sent_at >= ${phaseStart.toISOString()}::timestamptz and wamid is not null`,
      );
      const sentTimes = sends.map((r) => Number(r.t)).sort((a, b) => a - b);
      const arrivalByWamid = await graph<Record<string, number>>("/__wamids");
      const toFake = sends
        .filter((r) => arrivalByWamid[r.wamid] !== undefined)
        .map((r) => arrivalByWamid[r.wamid]! - Number(r.t))
        .sort((a, b) => a - b);
      const [latency] = await queryRows<{ n: number; p50: number; p99: number; max: number }>(
        db,
        sql`select count(*)::int as n,
            percentile_cont(0.5) within group (order by extract(epoch from sent_at - created_at))::float8 as p50,
            percentile_cont(0.99) within group (order by extract(epoch from sent_at - created_at))::float8 as p99,
            max(extract(epoch from sent_at - created_at))::float8 as max
          from messages where campaign_id = ${ws.campaignId} and created_at >= ${phaseStart.toISOString()}::timestamptz and sent_at is not null`,
      );
      const wamids = { sent: sends.length, distinct: new Set(sends.map((r) => r.wamid)).size };
      const first = bulkTimes[0] ?? 0;
      const last = bulkTimes.at(-1) ?? 0;
      const from = first + RAMP_MS;
      const to = last - RAMP_MS;
      const windowS = Math.max(0.001, (to - from) / 1000);
      const inWindow = (times: number[]) => times.filter((t) => t >= from && t < to).length;
      let slowest = Infinity;
      for (let second = from; second + 1000 <= to; second += 1000) slowest = Math.min(slowest, arrivals.filter((t) => t >= second && t < second + 1000).length);
      const messagesSent = wamids.sent;
      const perMessage = (seconds: number) => (seconds / Math.max(1, messagesSent)) * 1e6;
      const result: PhaseResult = {
        name,
        processes: dispatchers.length === 1 ? "next start (in-process loop)" : `next start + ${dispatchers.length - 1} worker`,
        recipients,
        bulkSent: bulkTimes.length,
        triggersAsked: asked,
        triggersAccepted: accepted,
        triggersSent: Number(latency?.n ?? 0),
        triggersRefused: [...refused].map(([why, n]) => `${n} × ${why}`).join(", "),
        httpP50: percentile([...httpTimes].sort((a, b) => a - b), 0.5),
        httpP99: percentile([...httpTimes].sort((a, b) => a - b), 0.99),
        arrivals: arrivals.length,
        distinctWamids: wamids.distinct,
        sentInPhase: messagesSent,
        firstToLastS: (last - first) / 1000,
        windowS,
        sustained: inWindow(arrivals) / windowS,
        sustainedBulk: inWindow(bulkTimes) / windowS,
        slowestSecond: Number.isFinite(slowest) ? slowest : 0,
        peak: peakInWindow(arrivals),
        sentPeak: peakInWindow(sentTimes),
        toFake: { p50: percentile(toFake, 0.5), p99: percentile(toFake, 0.99), max: toFake.at(-1) ?? NaN },
        triggerP50: Number(latency?.p50 ?? NaN),
        triggerP99: Number(latency?.p99 ?? NaN),
        triggerMax: Number(latency?.max ?? NaN),
        cpu: {
          dispatchers: perMessage(dispatcherSeconds.seconds),
          postgres: perMessage(postgresSeconds.seconds),
          postgresBackends: postgresSeconds.processes,
          allPostgres: perMessage(allPostgresSeconds.seconds),
          fakeGraph: perMessage(fakeSeconds.seconds),
          loadGenerator: perMessage(ownSeconds),
        },
        db: { transactions: (dbAfter.xacts - dbBefore.xacts) / Math.max(1, messagesSent), rowsWritten: (dbAfter.rows - dbBefore.rows) / Math.max(1, messagesSent) },
        elapsedS,
        timedOut,
      };
      console.log(result);
      return result;
    }

    const results: PhaseResult[] = [];
    results.push(await phase("one dispatching process", campaignIds[0]!, CONTACTS - 0, [server.child]));

    // A second dispatching process: the worker beside the server's own loop.
    const worker = ownProcess(
      spawn(process.execPath, ["--import", "tsx", "lib/engine/worker-main.ts"], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production", ...serverEnv },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    children.push(worker);
    const workerLog: string[] = [];
    worker.stderr!.on("data", (chunk: Buffer) => workerLog.push(chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      worker.stdout!.on("data", (chunk: Buffer) => {
        if (String(chunk).includes("[worker] dispatching")) resolve();
      });
      worker.once("exit", (code) => reject(new Error(`The worker exited (${code}):\n${workerLog.join("").slice(-3000)}`)));
    });
    results.push(await phase("two dispatching processes", campaignIds[1]!, SECOND_CONTACTS, [server.child, worker]));

    if (profileDir) {
      await stopProcess(server.child);
      const files = fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"));
      const biggest = files.map((f) => path.join(profileDir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
      if (biggest) for (const line of summariseProfile(biggest, 30)) console.log(`${line.selfPercent.toFixed(1).padStart(5)} %  ${line.name}  ${line.where}`);
      fs.rmSync(profileDir, { recursive: true, force: true });
    }

    // Report.
    const [version] = await queryRows<{ v: string }>(db, sql`select current_setting('server_version') as v`);
    const loadAtEnd = os.loadavg();
    const met = (r: PhaseResult) => ({
      sustained: r.sustained >= TARGETS.sustained,
      peak: r.peak <= TARGETS.peak,
      trigger: r.triggerP99 < TARGETS.triggerP99S && r.triggersSent === r.triggersAccepted,
      once: r.arrivals === r.sentInPhase && r.distinctWamids === r.sentInPhase && r.bulkSent === r.recipients,
    });
    const mark = (ok: boolean) => (ok ? "pass" : "**FAIL**");
    const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
    const rows = results.map((r) => {
      const m = met(r);
      return `| ${r.processes} | ${fmt(r.recipients)} | **${fmt(r.sustained)}/s** (bulk alone ${fmt(r.sustainedBulk)}/s; slowest second ${r.slowestSecond}; ${fmt(r.windowS, 1)} s window of ${fmt(r.firstToLastS, 1)} s) ${mark(m.sustained)} | **${r.peak}** ${mark(m.peak)} (by \`sent_at\`: ${r.sentPeak}) | ${fmt(r.triggerP50, 2)} s / **${fmt(r.triggerP99, 2)} s** / ${fmt(r.triggerMax, 2)} s (${r.triggersSent} of ${r.triggersAccepted} accepted, ${r.triggersAsked} asked${r.triggersRefused ? `, refused: ${r.triggersRefused}` : ""}; HTTP p50 ${fmt(r.httpP50)} ms, p99 ${fmt(r.httpP99)} ms) ${mark(m.trigger)} | ${r.arrivals} arrivals, ${r.sentInPhase} sent, ${r.distinctWamids} wamids ${mark(m.once)} | ${fmt(r.cpu.dispatchers)} µs | ${fmt(r.cpu.postgres)} µs (${r.cpu.postgresBackends} backends; all Postgres processes ${fmt(r.cpu.allPostgres)} µs) |`;
    });
    const details = results.map(
      (r) =>
        `- ${r.processes}: ${fmt(r.sentInPhase)} messages in ${fmt(r.elapsedS, 1)} s (launch to last send). From \`sent_at\` to the fake: p50 ${fmt(r.toFake.p50)} ms, p99 ${fmt(r.toFake.p99)} ms, max ${fmt(r.toFake.max)} ms. CPU per message: dispatchers ${fmt(r.cpu.dispatchers)} µs, Postgres ${fmt(r.cpu.postgres)} µs, the fake Graph API ${fmt(r.cpu.fakeGraph)} µs, this script (trigger requests, polling) ${fmt(r.cpu.loadGenerator)} µs: ${fmt((r.cpu.dispatchers + r.cpu.postgres + r.cpu.fakeGraph + r.cpu.loadGenerator) / 1000, 2)} ms of CPU per message in all, a ceiling of ${fmt((os.cpus().length * 1e6) / Math.max(1, r.cpu.dispatchers + r.cpu.postgres + r.cpu.fakeGraph + r.cpu.loadGenerator))} msg/s on ${os.cpus().length} cores. Database: ${fmt(r.db.transactions, 2)} transactions and ${fmt(r.db.rowsWritten, 2)} rows written per message.`,
    );
    const cpuModel = os.cpus()[0]?.model ?? "unknown CPU";
    const markdown = [
      "## Top rate: one number at 1,000 msg/s (`npm run bench:top-rate`)",
      "",
      `Run ${new Date().toISOString()}${QUICK ? " (**--quick**, scaled down)" : ""} on ${os.hostname()}: ${cpuModel}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, Postgres ${version?.v}; load average ${loadAtStart.map((n) => n.toFixed(1)).join(" / ")} at the start, ${loadAtEnd.map((n) => n.toFixed(1)).join(" / ")} at the end (the machine is shared with other work).`,
      "",
      `One WhatsApp sender (throughput ${THROUGHPUT}/s) sends into a fake Graph API in its own process on the same machine, answering after ${LATENCY.min}–${LATENCY.max} ms (uniform). A bulk campaign at ${THROUGHPUT}/s to every contact of its list, while ${TRIGGERS_PER_SECOND} trigger requests a second (open loop, HTTP to \`next start\`, the trigger endpoint with an API key) go to the same number; the server dispatches in-process (its engine loop), the second row adds \`lib/engine/worker-main.ts\` (\`npm run worker\`) beside it. Sustained: the fake's arrivals for the number (bulk and triggers) between the first bulk \`sent_at\` + ${RAMP_MS / 1000} s and the last − ${RAMP_MS / 1000} s, over that window. Peak: most arrivals at the fake in any sliding 1-second window (in brackets: most sends let go, \`sent_at\`, in any such window: the pacing's own record, before the transport and the fake's event loop). Trigger latency: \`created_at\` → \`sent_at\` of each trigger message. CPU: /proc utime + stime of the dispatching processes' trees and of this database's Postgres backends (pg_stat_activity, sampled every second), per message sent in the phase (launch to last send, the launch's snapshot writing included).`,
      "",
      "| dispatching | recipients | sustained ≥ 950/s | peak in any 1 s ≤ 1,000 | triggers queued → sent p50 / p99 / max (< 2 s) | exactly once | CPU per message, dispatchers | CPU per message, Postgres |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      ...details,
      "",
    ].join("\n");
    console.log(`\n${markdown}`);
    writeResultsSection("top-rate", markdown);
    // As the other benches: a missed figure is reported in the table; the run fails when a message went
    // out twice or not at all, or the bench did not finish.
    const ok = results.every((r) => met(r).once && r.triggersSent === r.triggersAccepted && !r.timedOut);
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const child of children.reverse()) await stopProcess(child).catch(() => {});
    await probe.end().catch(() => {});
    await closeDb().catch(() => {});
    const admin = new URL(benchDatabaseUrl(DB_NAME));
    admin.pathname = "/postgres";
    const adminSql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    await adminSql.unsafe(`drop database if exists "${DB_NAME}" with (force)`).catch((error: unknown) => console.error(`dropping ${DB_NAME} failed: ${String(error)}`));
    await adminSql.end();
  }
}

const loadAtStart = os.loadavg();
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
