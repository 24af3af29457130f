// `npm run bench:growth`: the trigger and the contact import at 10 %, 100 % and 1,000 % of their
// benchmarks' sizes, time and the server's memory against size, drawn in bench/growth.svg (beside
// RESULTS_FILE) and tabled in the "growth" section of bench/RESULTS.md.
//   Trigger: N requests (1,000 / 10,000 / 100,000; 10,000 is about the 20 s closed loop of
//     `bench:trigger`), each a new phone, 50 connections, web-only `next start` on Postgres, a fresh
//     server and campaign per size.
//   Import: 100,000 rows as one file; 1,000,000 as one file (the size of `bench:import`); 10,000,000 as
//     ten files of 1,000,000 new phones into the same workspace, one after another — one file may
//     hold at most 200 MiB, about 4,000,000 of these rows. The 100 % point is the first of the ten.
//
// Env: BENCH_GROWTH_REQUESTS (10000) and BENCH_GROWTH_ROWS (1000000): the 100 % sizes;
// BENCH_CONNECTIONS (50); BENCH_DATABASE_URL; NEXT_DIST_DIR (default .next-growth; built when missing or
// BENCH_BUILD=1); BENCH_PORT (3208); BENCH_RESULTS_FILE.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import postgres from "postgres";
import { growthSvg, type GrowthPoint } from "./growth-chart";
import { importOnce, waitForStagedRowsDeleted, writeCsv, type ImportRun } from "./import-support";
import { rssOfTree } from "./processes";

process.env.NEXT_DIST_DIR ||= ".next-growth";
process.env.BENCH_PORT ||= "3208";
// The server decrypts what the fixtures encrypt: both use this key.
process.env.ENCRYPTION_KEY ??= "be0c".repeat(16);

const REQUESTS = Number(process.env.BENCH_GROWTH_REQUESTS ?? 10_000);
const ROWS = Number(process.env.BENCH_GROWTH_ROWS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const FILES_AT_1000 = 10;
const DATABASE = "sendstream_bench_growth";
const TMP = path.resolve(import.meta.dirname, ".tmp");

interface TriggerPoint extends GrowthPoint {
  requests: number;
  accepted: number;
  perSecond: number;
  p50: number;
  p99: number;
  rssBaselineMb: number;
  databaseMb: number;
}

interface ImportPoint extends GrowthPoint {
  rows: number;
  files: ImportRun[];
  rssBaselineMb: number;
  databaseMb: number;
}

// Loaded once the environment above is set: trigger-support reads NEXT_DIST_DIR and BENCH_PORT when loaded.
const support = () => import("./trigger-support");

async function switchToFreshDatabase(): Promise<string> {
  const { closeDb } = await import("@/db");
  await closeDb();
  const url = await (await support()).freshDatabase(DATABASE);
  process.env.DATABASE_URL = url;
  return url;
}

async function databaseMb(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return Number((await sql<{ bytes: string }[]>`select pg_database_size(current_database())::text as bytes`)[0]!.bytes) / 2 ** 20;
  } finally {
    await sql.end();
  }
}

/** The rows and requests of one size, as shown in the table and the chart. */
const count = (n: number) => n.toLocaleString("en-US");

async function triggerSeries(): Promise<TriggerPoint[]> {
  const { BASE_URL, phoneNumbers, startServer } = await support();
  const url = await switchToFreshDatabase();
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const points: TriggerPoint[] = [];
  let phoneStart = 0;
  for (const percent of [10, 100, 1000]) {
    const requests = Math.round((REQUESTS * percent) / 100);
    const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
    const server = await startServer({ DATABASE_URL: url, DISPATCHER: "off", TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" });
    try {
      const run = (amount: number) => {
        const phones = phoneNumbers(amount, phoneStart);
        phoneStart += amount;
        let next = 0;
        return autocannon({
          url: `${BASE_URL}/api/campaigns/${fixture.campaignId}/trigger`,
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
          connections: Math.min(CONNECTIONS, amount),
          amount,
          requests: [
            {
              setupRequest: (request) => {
                const phone = phones[next++ % phones.length]!;
                return { ...request, body: JSON.stringify({ phone, order: `ORD-${next}`, first_name: "Bench", amount: 42 }) };
              },
            },
          ],
        });
      };
      // Warm-up: the server's first requests compile and connect; not part of the size.
      await run(Math.min(500, requests));
      const pid = server.child.pid!;
      const baseline = rssOfTree(pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOfTree(pid))), 100);
      const started = performance.now();
      const result = await run(requests);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssOfTree(pid));
      const point: TriggerPoint = {
        sizePercent: percent,
        label: `${count(requests)} requests`,
        seconds,
        rssGrowthMb: (peak - baseline) / 2 ** 20,
        requests,
        accepted: result["2xx"],
        perSecond: result["2xx"] / seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        rssBaselineMb: baseline / 2 ** 20,
        databaseMb: await databaseMb(url),
      };
      console.log(
        `trigger ${percent} %: ${count(requests)} requests in ${seconds.toFixed(1)} s (${point.perSecond.toFixed(0)}/s accepted, ${point.accepted} 2xx), p50 ${point.p50} ms, p99 ${point.p99} ms, RSS +${point.rssGrowthMb.toFixed(1)} MB`,
      );
      if (point.accepted !== requests) throw new Error(`Only ${point.accepted} of ${requests} trigger requests were accepted.`);
      points.push(point);
    } finally {
      await server.stop();
    }
  }
  return points;
}

async function importSeries(): Promise<ImportPoint[]> {
  const { BASE_URL, startServer } = await support();
  const points: ImportPoint[] = [];
  // 10 %: one file in a database of its own; then the ten files of 100 % each into one workspace.
  for (const files of [{ percent: 10, rows: ROWS / 10, count: 1 }, { percent: 1000, rows: ROWS, count: FILES_AT_1000 }]) {
    const url = await switchToFreshDatabase();
    const { getDb } = await import("@/db");
    const { createUserWithWorkspace } = await import("@/lib/auth/accounts");
    const { createApiKey } = await import("@/lib/api-keys/service");
    const user = await createUserWithWorkspace(await getDb(), { name: "Bench", email: "bench-growth@example.test", passwordHash: null });
    const { key } = await createApiKey(await getDb(), user.workspaceId, { userId: user.id, ip: null, userAgent: null }, { name: "bench growth" });
    const server = await startServer({ DATABASE_URL: url, DISPATCHER: "off" });
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const pid = server.child.pid!;
      const baseline = rssOfTree(pid);
      const runs: ImportRun[] = [];
      for (let k = 0; k < files.count; k++) {
        const first = k * files.rows;
        const csv = await writeCsv(path.join(TMP, `import-${files.rows}${first ? `-from-${first}` : ""}.csv`), files.rows, first);
        const run = await importOnce({ baseUrl: BASE_URL, key, pid }, csv, `file ${k + 1} of ${files.count}`, `Growth ${k + 1}`);
        if (run.report.created !== csv.expected.distinct) throw new Error(`File ${k + 1}: created ${run.report.created}, expected ${csv.expected.distinct}.`);
        runs.push(run);
        // The staged rows are deleted after the report; the next file starts once they are, as in bench:import.
        await waitForStagedRowsDeleted(sql, run.report.id);
        if (k === 0 && files.count > 1) points.push(importPoint(100, files.rows, runs, baseline, await databaseMb(url)));
      }
      points.push(importPoint(files.percent, files.rows * files.count, runs, baseline, await databaseMb(url)));
    } finally {
      await sql.end();
      await server.stop();
    }
  }
  return points.sort((a, b) => a.sizePercent - b.sizePercent);
}

function importPoint(percent: number, rows: number, runs: ImportRun[], baseline: number, databaseSize: number): ImportPoint {
  const point: ImportPoint = {
    sizePercent: percent,
    label: `${count(rows)} rows`,
    seconds: runs.reduce((sum, run) => sum + run.totalS, 0),
    rssGrowthMb: Math.max(...runs.map((run) => run.peakMb)) - baseline / 2 ** 20,
    rows,
    files: [...runs],
    rssBaselineMb: baseline / 2 ** 20,
    databaseMb: databaseSize,
  };
  console.log(`import ${percent} %: ${count(rows)} rows in ${point.seconds.toFixed(1)} s, RSS +${point.rssGrowthMb.toFixed(1)} MB`);
  return point;
}

/** Seconds per unit, relative to the smallest size: 1 is linear, below is better. */
function perUnitRatio(points: GrowthPoint[], point: GrowthPoint): number {
  const first = points[0]!;
  return point.seconds / point.sizePercent / (first.seconds / first.sizePercent);
}

/** What the run says about growth: the cost per unit at the largest size against the smallest, and the memory. */
function verdict(name: string, unit: string, points: GrowthPoint[]): string {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const ratio = perUnitRatio(points, last);
  const memory = points.map((p) => `+${p.rssGrowthMb.toFixed(0)} MB`).join(", ");
  return `- ${name}: time per ${unit} at ${last.sizePercent} % is ${ratio.toFixed(2)}× that at ${first.sizePercent} %: ${
    ratio <= 1.1 ? "**linear or better**" : "**worse than linear**"
  }. Server RSS growth by size: ${memory}.`;
}

async function main() {
  const { ensureBuild, writeResultsSection, RESULTS_FILE } = await support();
  const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
  ensureBuild();
  const trigger = await triggerSeries();
  const imports = await importSeries();
  const loadAfter = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
  const cpu = os.cpus();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM`;
  const date = new Date().toISOString();
  const svgFile = path.join(path.dirname(RESULTS_FILE), "growth.svg");
  fs.mkdirSync(path.dirname(svgFile), { recursive: true });
  fs.writeFileSync(
    svgFile,
    growthSvg(
      [
        { name: `trigger: requests (100 % = ${count(REQUESTS)})`, color: "#2563eb", points: trigger },
        { name: `import: rows (100 % = ${count(ROWS)})`, color: "#d97706", points: imports },
      ],
      `bench:growth, ${date.slice(0, 16).replace("T", " ")} UTC, ${machine}`,
    ),
  );
  const triggerRows = trigger
    .map(
      (p) =>
        `| ${p.sizePercent} % | ${count(p.requests)} | ${p.seconds.toFixed(1)} s | ${perUnitRatio(trigger, p).toFixed(2)} | ${p.perSecond.toFixed(0)}/s | ${p.p50} / ${p.p99} ms | ${p.rssBaselineMb.toFixed(0)} MB + ${p.rssGrowthMb.toFixed(1)} MB | ${p.databaseMb.toFixed(0)} MB |`,
    )
    .join("\n");
  const importRows = imports
    .map(
      (p) =>
        `| ${p.sizePercent} % | ${count(p.rows)} | ${p.files.length} | ${p.seconds.toFixed(1)} s | ${perUnitRatio(imports, p).toFixed(2)} | ${Math.round(p.rows / p.seconds).toLocaleString("en-US")}/s | ${p.rssBaselineMb.toFixed(0)} MB + ${p.rssGrowthMb.toFixed(1)} MB | ${p.databaseMb.toFixed(0)} MB |`,
    )
    .join("\n");
  const tenFiles = imports.find((p) => p.sizePercent === 1000)!;
  const fileLine = tenFiles.files
    .map((run, i) => `${i + 1}: ${run.totalS.toFixed(1)} s (merge ${run.mergeS.toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB)`)
    .join("; ");
  writeResultsSection(
    "growth",
    `
## Growth with size (\`npm run bench:growth\`)

Run ${date} on ${machine}, Node ${process.version}; load average before ${load}, after ${loadAfter}. Server: \`next start\` (production
build, \`DISPATCHER=off\`) on Postgres; the client and Postgres share the machine. Time and the server's RSS growth (process tree,
sampled every 50–100 ms, over its RSS before the size ran) against size:

![Time and server memory against size](growth.svg)

Trigger: closed loop, ${CONNECTIONS} connections, each request a new phone (a new contact and a queued message), a fresh server and
campaign per size after 500 warm-up requests; all sizes in one database, in order.

| size | requests | time | time per request vs 10 % | accepted | p50 / p99 | server RSS | database after |
|---|---|---|---|---|---|---|---|
${triggerRows}

Import: the \`bench:import\` file shape (5 % duplicate phones, 1 % invalid rows, 3 attributes) through the API. 10 %: one file into an
empty database. 1,000 %: ten files of ${count(ROWS)} new phones each into one workspace, one after another (a file holds at most
200 MiB); the 100 % point is the first of them, into the empty workspace. Time is the sum of the files' upload-to-report times.

| size | rows | files | time | time per row vs 10 % | rows/s | server RSS | database after |
|---|---|---|---|---|---|---|---|
${importRows}

Each of the ten files (each adds ${count(tenFiles.files[0]!.report.created)} contacts to the workspace): ${fileLine}.

${verdict("Trigger", "request", trigger)}
${verdict("Import", "row", imports)}
`,
  );
  console.log(`Written to ${RESULTS_FILE} and ${svgFile}.`);
}

const exitBench = async (code: number) => (await support()).exitBench(code);
main().then(
  () => exitBench(Number(process.exitCode ?? 0)),
  (error: unknown) => {
    console.error(error);
    return exitBench(1);
  },
);
