// `npm run bench:segments`: segment counts over 1,000,000 contacts of one workspace on Postgres —
// text equals / contains / starts with, each case-insensitive (the default) and with "match case" —
// timed through countSegmentFilter (the function the count endpoint calls), median of BENCH_RUNS.
// A second workspace of BENCH_OTHER_ROWS contacts shares the table, as in a real deployment.
//
// Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; the bench uses its own
// database sendstream_bench_segments, recreated and dropped at the end unless BENCH_REUSE=1: a run with
// BENCH_KEEP_DB=1 keeps it for the next with BENCH_REUSE=1), BENCH_ROWS (1000000),
// BENCH_OTHER_ROWS (100000), BENCH_RUNS (5). Results go to bench/RESULTS.md (section "segments").
import os from "node:os";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { benchDatabaseUrl, exitBench, freshDatabase, writeResultsSection } from "./trigger-support";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const OTHER_ROWS = Number(process.env.BENCH_OTHER_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DB_NAME = "sendstream_bench_segments";
const TARGET_MS = 500;
const WORKSPACE = "ws_benchsegments";

const url = process.env.BENCH_REUSE === "1" ? benchDatabaseUrl(DB_NAME) : await freshDatabase(DB_NAME);
process.env.DATABASE_URL = url;
const { closeDb, getDb } = await import("@/db");
const { countSegmentFilter, segmentFilterSchema } = await import("@/lib/audiences/segments");
const raw = postgres(url, { max: 1, onnotice: () => {} });

// 20 cities; one contact in 25 has its city typed in lower case and one in 40 with spaces around it,
// the way hand-typed files arrive. Every contact also has a plan, points and a signup date.
async function seed(workspaceId: string, rows: number, offset: number): Promise<number> {
  const started = performance.now();
  await raw`insert into workspaces (id, name) values (${workspaceId}, ${workspaceId}) on conflict do nothing`;
  await raw`
    insert into contacts (id, workspace_id, phone_number, name, attributes, created_at)
    select 'ctc_b' || (${offset}::int + i), ${workspaceId}, '+1555' || lpad((${offset}::int + i)::text, 7, '0'), 'Customer ' || i,
           jsonb_build_object(
             'city', case when (i / 20) % 40 = 7 then '  ' || cities[1 + i % 20] || ' '
                          when (i / 20) % 25 = 3 then lower(cities[1 + i % 20])
                          else cities[1 + i % 20] end,
             'plan', (array['free', 'pro', 'business'])[1 + i % 3],
             'points', i % 1000,
             'signup', '2025-0' || (1 + i % 9) || '-1' || (i % 9)),
           now() - (i || ' seconds')::interval
    from generate_series(1, ${rows}::int) i,
         (select array['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Lisbon', 'Porto', 'Paris', 'Lyon', 'Berlin', 'Munich',
                       'Rome', 'Milan', 'London', 'Leeds', 'Dublin', 'Austin', 'Denver', 'Boston', 'Miami', 'Seattle'] as cities) c`;
  await raw`vacuum analyze contacts`;
  return Math.round((performance.now() - started) / 1000);
}

let seedSeconds = 0;
if (process.env.BENCH_REUSE !== "1") {
  seedSeconds += await seed(WORKSPACE, ROWS, 0);
  seedSeconds += await seed("ws_benchsegmentsother", OTHER_ROWS, ROWS);
}

interface Case {
  label: string;
  condition: Record<string, unknown>;
}
const CASES: Case[] = [
  { label: "city is \"madrid\" (ignores case and spaces)", condition: { field: "attribute", key: "city", op: "equals", value: "madrid" } },
  { label: "city is \"Madrid\", match case", condition: { field: "attribute", key: "city", op: "equals", value: "Madrid", matchCase: true } },
  { label: "city is not \"madrid\"", condition: { field: "attribute", key: "city", op: "not_equals", value: "madrid" } },
  { label: "city contains \"DRI\"", condition: { field: "attribute", key: "city", op: "contains", value: "DRI" } },
  { label: "city contains \"dri\", match case", condition: { field: "attribute", key: "city", op: "contains", value: "dri", matchCase: true } },
  { label: "city starts with \"mad\"", condition: { field: "attribute", key: "city", op: "starts_with", value: "mad" } },
  { label: "city starts with \"Mad\", match case", condition: { field: "attribute", key: "city", op: "starts_with", value: "Mad", matchCase: true } },
];

const db = await getDb();
const results: { label: string; count: number; median: number; min: number; max: number }[] = [];
for (const { label, condition } of CASES) {
  const filter = segmentFilterSchema.parse({ match: "all", conditions: [condition] });
  await countSegmentFilter(db, WORKSPACE, filter); // warm the cache and the plan
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    count = await countSegmentFilter(db, WORKSPACE, filter);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const result = { label, count, median: Math.round(times[Math.floor(times.length / 2)]!), min: Math.round(times[0]!), max: Math.round(times.at(-1)!) };
  results.push(result);
  console.log(result);
}

// Where the time goes: the plan of the slowest case.
const slowest = [...results].sort((a, b) => b.median - a.median)[0]!;
const slowestCase = CASES.find((entry) => entry.label === slowest.label)!;
const { compileSegmentFilter } = await import("@/lib/audiences/segments");
const { PgDialect } = await import("drizzle-orm/pg-core");
const { sql } = await import("drizzle-orm");
const compiled = new PgDialect().sqlToQuery(
  sql`explain (analyze, buffers) select count(*) from contacts c where c.workspace_id = ${WORKSPACE} and ${compileSegmentFilter(segmentFilterSchema.parse({ match: "all", conditions: [slowestCase.condition] }))}`,
);
const plan = (await raw.unsafe(compiled.sql, compiled.params as never[])).map((row) => Object.values(row)[0]).join("\n");
const [settings] = await raw<{ version: string; workers: string }[]>`select version() as version, current_setting('max_parallel_workers_per_gather') as workers`;
const { version, workers } = settings!;
await raw.end();
await closeDb();

const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
const pass = results.every((r) => r.median < TARGET_MS);
const markdown = `## Segment counts (\`npm run bench:segments\`)

Run ${new Date().toISOString()} on ${os.hostname()}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM,
load average ${load} at the end (the machine is shared), Node ${process.version}, ${String(version).split(" on ")[0]} (max_parallel_workers_per_gather ${workers}).
${ROWS.toLocaleString("en")} contacts in the counted workspace and ${OTHER_ROWS.toLocaleString("en")} in another${seedSeconds ? ` (seeded in ${seedSeconds} s)` : ""}; 20 cities, 1 in 25 typed in lower case, 1 in 40 with spaces around it.
Each count is \`countSegmentFilter\` (what \`POST /api/v1/segments/count\` runs), median of ${RUNS} after one warm-up.

| condition | contacts | median ms | min ms | max ms |
|---|---|---|---|---|
${results.map((r) => `| ${r.label} | ${r.count.toLocaleString("en")} | **${r.median}** | ${r.min} | ${r.max} |`).join("\n")}

Result: ${pass ? "pass" : "FAIL"} (target: every count < ${TARGET_MS} ms). Plan of the slowest (${slowest.label}):

\`\`\`
${plan}
\`\`\``;
writeResultsSection("segments", markdown);
console.log(markdown);
await exitBench(pass ? 0 : 1);
