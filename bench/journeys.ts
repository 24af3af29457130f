// `npm run bench:journeys`: journey runs on Postgres, executed by the engine as production runs it
// (`next start` answering triggers with DISPATCHER=off and `npm run worker` running every job, or
// BENCH_ENGINE=inprocess: `next start` alone, its in-process loop).
//
// (a) Timers: BENCH_RUNS (100,000) runs `active` at a send step, due uniformly over BENCH_WINDOW
//     (60) s starting ~15 s after they are stored. Lateness of each = its history row `sent` − its
//     due time: p50 / p99 / max, target p99 ≤ 2 s. Meanwhile triggers of a classic trigger campaign
//     (same workspace, same server, API key) at BENCH_TRIGGER_RATE (20/s, open loop), compared with
//     the same rate measured first while no run is due.
// (b) Exits: BENCH_EXIT_RUNS (20,000) runs of another journey (send → wait a day → end, exit event
//     `order_placed`) due uniformly over the burst; BENCH_EXITS (10,000) exit events, one per run for
//     a random half of them, at BENCH_EXIT_RATE (1,000/s, open loop) through `ingestEvent` in this
//     process (what POST /api/v1/events runs), each event's acceptance time recorded. Then from the
//     database: every run whose exit was accepted is `exited`, and none of its messages was created
//     or sent after that time or is still queued (target 0 violations).
//
// BENCH_PARTS=a or b runs one part. BENCH_QUICK=1: small sizes, under a minute of load. Env: BENCH_DATABASE_URL (own database
// sendstream_bench_journeys, recreated), BENCH_PORT, NEXT_DIST_DIR (default .next-trigger; BENCH_BUILD=1
// rebuilds), BENCH_SENDER_RATE (the sandbox number's messages/s, 250). Results: bench/RESULTS.md ("journeys").
import os from "node:os";
import { performance } from "node:perf_hooks";
import { createPlainTemplate, deployJourney, latencySummary, openLoop, backlog, percentile, round, seedContacts, seedRuns, startWorker, type Worker } from "./journeys-support";
import { measureExits } from "./journeys-exits";
import { BASE_URL, ensureBuild, exitBench, freshDatabase, phoneNumbers, sleep, startServer, writeResultsSection, type Server } from "./trigger-support";

const QUICK = process.env.BENCH_QUICK === "1";
const int = (name: string, full: number, quick: number) => Number(process.env[name] ?? (QUICK ? quick : full));
const RUNS = int("BENCH_RUNS", 100_000, 2_000);
const WINDOW_S = int("BENCH_WINDOW", 60, 10);
const LEAD_S = int("BENCH_LEAD", 15, 8);
const TRIGGER_RATE = int("BENCH_TRIGGER_RATE", 20, 20);
const BASELINE_S = int("BENCH_BASELINE", 20, 5);
const EXITS = int("BENCH_EXITS", 10_000, 1_000);
const EXIT_RATE = int("BENCH_EXIT_RATE", 1_000, 200);
const EXIT_RUNS = int("BENCH_EXIT_RUNS", 2 * EXITS, 2 * EXITS);
const SENDER_RATE = int("BENCH_SENDER_RATE", 250, 250);
/** How long after the last due time the runs may take before the bench gives up on them. */
const DRAIN_S = int("BENCH_DRAIN", 240, 30);
const PARTS = process.env.BENCH_PARTS ?? "ab";
const ENGINE = process.env.BENCH_ENGINE === "inprocess" ? "inprocess" : "worker";
const EXIT_EVENT = "order_placed";
process.env.ENCRYPTION_KEY ??= "be0c".repeat(16);

const loadBefore = os.loadavg();
ensureBuild();
const url = await freshDatabase("sendstream_bench_journeys");
process.env.DATABASE_URL = url;
const { getDb, closeDb } = await import("@/db");
const { queryRows } = await import("@/db/rows");
const { sql } = await import("drizzle-orm");
const { createTriggerFixture, createTriggerCampaign } = await import("@/lib/testing/trigger-factories");
const db = await getDb();

// ---- seed ----------------------------------------------------------------------------------------
console.log(`Seeding ${RUNS.toLocaleString("en-US")} + ${EXIT_RUNS.toLocaleString("en-US")} contacts …`);
const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
const { workspaceId } = fixture;
await db.execute(sql`update senders set throughput_per_second = ${SENDER_RATE} where workspace_id = ${workspaceId}`);
const templateId = await createPlainTemplate(db, workspaceId);
const timersCampaign = await createTriggerCampaign(workspaceId, templateId, { rateLimitPerMinute: 1_000_000_000 });
await deployJourney(db, timersCampaign, {
  firstStepId: "send",
  steps: [
    { id: "send", type: "send", templateId, messageConfig: { variables: [] }, next: "done" },
    { id: "done", type: "end" },
  ],
});
const exitsCampaign = await createTriggerCampaign(workspaceId, templateId, { rateLimitPerMinute: 1_000_000_000 });
await deployJourney(db, exitsCampaign, {
  firstStepId: "send",
  steps: [
    { id: "send", type: "send", templateId, messageConfig: { variables: [] }, next: "hold" },
    { id: "hold", type: "wait", wait: { kind: "duration", seconds: 86_400 }, next: "done" },
    { id: "done", type: "end" },
  ],
  exitEvents: [{ kind: "event", name: EXIT_EVENT }],
});
await seedContacts(db, workspaceId, "ctc_ja", "49151", RUNS);
await seedContacts(db, workspaceId, "ctc_jb", "49152", EXIT_RUNS);
await db.execute(sql`vacuum analyze`);
await db.execute(sql`checkpoint`);

const serverEnv = { DATABASE_URL: url, TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" };
let server: Server | null = null;
let worker: Worker | null = null;
const triggerPhones = phoneNumbers(5_000);
let triggerCount = 0;
const trigger = async () => {
  const n = triggerCount++;
  const response = await fetch(`${BASE_URL}/api/campaigns/${fixture.campaignId}/trigger`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
    body: JSON.stringify({ phone: triggerPhones[n % triggerPhones.length], order: `ORD-${n}`, first_name: "Bench", amount: 42 }),
  });
  await response.arrayBuffer();
  return response.status === 202;
};
const triggers = (seconds: number) => openLoop(TRIGGER_RATE, Math.round(TRIGGER_RATE * seconds), trigger);

try {
  server = await startServer(ENGINE === "worker" ? { ...serverEnv, DISPATCHER: "off" } : serverEnv);
  if (ENGINE === "worker") worker = await startWorker({ ...serverEnv, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY, AUTH_SECRET: "bench-only-secret-0123456789abcdef0123456789" });
  await triggers(3);

  // ---- (a) timers --------------------------------------------------------------------------------
  console.log(`(a) baseline: triggers at ${TRIGGER_RATE}/s for ${BASELINE_S} s, no run due …`);
  const baseline = await triggers(BASELINE_S);
  console.log(`    ${latencySummary(baseline)}`);
  const dueFrom = new Date(Date.now() + (LEAD_S + Math.ceil(RUNS / 20_000)) * 1000);
  const seedStarted = performance.now();
  await seedRuns(db, { workspaceId, campaignId: timersCampaign, prefix: "jra_", contactPrefix: "ctc_ja", dial: "49151", count: RUNS, stepId: "send", exitTokens: [], from: dueFrom, windowSeconds: WINDOW_S });
  await db.execute(sql`analyze journey_runs`);
  const seededAt = Date.now();
  const leadSeconds = (dueFrom.getTime() - seededAt) / 1000;
  console.log(`    ${RUNS} runs stored in ${round((performance.now() - seedStarted) / 1000)} s; the first is due ${round(leadSeconds)} s later`);
  if (leadSeconds < 3) throw new Error("Storing the runs took longer than their lead: raise BENCH_LEAD.");
  await sleep(Math.max(0, dueFrom.getTime() - Date.now() - 2_000));
  // Triggers over the whole due window and a little after.
  const loaded = triggers(WINDOW_S + 6);
  const progress: string[] = [];
  const giveUpAt = dueFrom.getTime() + (WINDOW_S + DRAIN_S) * 1000;
  let left = RUNS;
  let worstOverdue = 0;
  let samplesOver2s = 0;
  let samples = 0;
  while (left > 0 && Date.now() < giveUpAt) {
    await sleep(1_000);
    const seen = await backlog(db, timersCampaign, "send");
    left = seen.pending;
    samples++;
    if (seen.overdue2s > 0) samplesOver2s++;
    worstOverdue = Math.max(worstOverdue, seen.oldestSeconds);
    const secondsIn = Math.round((Date.now() - dueFrom.getTime()) / 1000);
    if (secondsIn % 15 === 0 || left === 0) progress.push(`${secondsIn} s: ${RUNS - left} done, ${seen.overdue} overdue (oldest ${round(seen.oldestSeconds)} s)`);
    console.log(`    t=${secondsIn}s: ${RUNS - left} of ${RUNS} executed, ${seen.overdue} overdue, the oldest by ${round(seen.oldestSeconds, 2)} s, ${seen.overdue2s} by > 2 s`);
  }
  if (left === RUNS) console.error(`No run was executed. The worker's log:\n${worker?.log().slice(-4000) ?? "(in-process: see the server)"}`);
  const during = await loaded;
  console.log(`    triggers meanwhile: ${latencySummary(during)}`);
  // A run's due time from its number (the runner clears due_at when a run completes).
  const dueOf = sql`(${dueFrom.toISOString()}::timestamptz + make_interval(secs => (substr(r.id, 5)::int - 1) * ${WINDOW_S}::float8 / ${RUNS}::int))`;
  // Over every run: one not executed when the bench stopped waiting counts as late by at least now − due.
  const [lateness] = await queryRows<{ executed: number; p50: number; p99: number; max: number; late_2s: number; last_at: string | null }>(
    db,
    sql`select count(at)::int as executed,
        percentile_cont(0.5) within group (order by l) as p50, percentile_cont(0.99) within group (order by l) as p99, max(l) as max,
        count(*) filter (where l > 2)::int as late_2s, max(at) as last_at
      from (select extract(epoch from coalesce(s.at, clock_timestamp()) - ${dueOf})::float8 as l, s.at
        from journey_runs r left join journey_run_steps s on s.run_id = r.id and s.step_id = 'send' and s.outcome = 'sent'
        where r.campaign_id = ${timersCampaign}) x`,
  );
  const perTenSeconds = await queryRows<{ bucket: number; runs: number; p50: number; p99: number; max: number }>(
    db,
    sql`select floor(extract(epoch from due - ${dueFrom.toISOString()}::timestamptz) / 10)::int * 10 as bucket, count(*)::int as runs,
        percentile_cont(0.5) within group (order by l) as p50, percentile_cont(0.99) within group (order by l) as p99, max(l) as max
      from (select ${dueOf} as due, extract(epoch from s.at - ${dueOf})::float8 as l from journey_run_steps s join journey_runs r on r.id = s.run_id
        where r.campaign_id = ${timersCampaign} and s.step_id = 'send' and s.outcome = 'sent') x group by 1 order by 1`,
  );
  const [outcomes] = await queryRows<{ summary: string }>(
    db,
    sql`select string_agg(outcome || ' ' || n, ', ') as summary from (select s.outcome, count(*) as n from journey_run_steps s join journey_runs r on r.id = s.run_id
      where r.campaign_id = ${timersCampaign} group by 1 order by 2 desc) x`,
  );
  const executed = lateness?.executed ?? 0;
  const executionRate = executed > 1 && lateness?.last_at ? executed / ((new Date(lateness.last_at).getTime() - dueFrom.getTime()) / 1000) : 0;
  console.log(`    lateness: p50 ${round(lateness?.p50 ?? 0, 3)} s, p99 ${round(lateness?.p99 ?? 0, 3)} s, max ${round(lateness?.max ?? 0, 3)} s over ${executed} runs`);
  // What (a) left (runs not executed in time, messages still queued) would compete with (b): set aside.
  await db.execute(sql`update journey_runs set status = 'ended', exit_reason = 'bench', due_at = null where campaign_id = ${timersCampaign} and status in ('active', 'waiting')`);
  await db.execute(sql`update messages set status = 'skipped', error_code = 'bench', updated_at = now() where campaign_id = ${timersCampaign} and status = 'queued'`);

  // ---- (b) exits ---------------------------------------------------------------------------------
  const exitsMarkdown = PARTS.includes("b")
    ? await measureExits({ db, workspaceId, campaignId: exitsCampaign, event: EXIT_EVENT, runs: EXIT_RUNS, exits: EXITS, rate: EXIT_RATE, leadSeconds: LEAD_S, settleSeconds: QUICK ? 5 : 15 })
    : "(b) **Exits**: not run (BENCH_PARTS).";
  console.log(exitsMarkdown);

  await worker?.stop();
  worker = null;
  await server.stop();
  server = null;

  // ---- results -----------------------------------------------------------------------------------
  const loadAfter = os.loadavg();
  const load = (values: number[]) => values.map((n) => n.toFixed(1)).join(" / ");
  const [pg] = await queryRows<{ version: string }>(db, sql`select version()`);
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  const ms = (values: number[], p: number) => round(percentile(values, p));
  const p99Late = lateness?.p99 ?? Infinity;
  const markdown = `## Journeys (\`npm run bench:journeys\`${QUICK ? ", BENCH_QUICK=1" : ""})

Run ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${pg?.version.split(" on ")[0]}.
Load average (1 / 5 / 15 min) before ${load(loadBefore)}, after ${load(loadAfter)} (the machine is shared with other work). Engine: ${
    ENGINE === "worker" ? "`next start` with DISPATCHER=off answering the triggers and `npm run worker` running every job" : "`next start` alone, its in-process job loop"
  }, on one Postgres database; the sandbox number sends ${SENDER_RATE} messages/s.

(a) **Timers**: ${RUNS.toLocaleString("en-US")} runs \`active\` at a send step (send → end), due uniformly over ${WINDOW_S} s starting ${round(leadSeconds)} s after they were stored.
${executed.toLocaleString("en-US")} executed${executed < RUNS ? ` when the bench stopped waiting ${WINDOW_S + DRAIN_S} s after the first due time (the others were then ended, and count below as late by at least that moment − their due time)` : ""}; lateness (history row \`sent\`, written with \`clock_timestamp()\`, − due time): p50 ${round(lateness?.p50 ?? 0, 3)} s, **p99 ${round(p99Late, 3)} s**, max ${round(lateness?.max ?? 0, 3)} s;
${lateness?.late_2s ?? 0} runs more than 2 s late — target p99 ≤ 2 s: **${verdict(executed === RUNS && p99Late <= 2)}**. Executed ${round(executionRate, 0)} runs/s on average from the first due time to the last execution (due rate ${round(RUNS / WINDOW_S, 0)}/s). History outcomes: ${outcomes?.summary ?? "none"}.

| due second | runs | p50 s | p99 s | max s |
|---|---|---|---|---|
${perTenSeconds.map((b) => `| ${b.bucket}–${b.bucket + 10} | ${b.runs} | ${round(b.p50, 3)} | ${round(b.p99, 3)} | ${round(b.max, 3)} |`).join("\n")}

Triggers of a classic trigger campaign (same workspace and server, API key) at ${TRIGGER_RATE}/s open loop, latency from each request's scheduled time:
no run due (${BASELINE_S} s) p50 ${ms(baseline.latencies, 50)} ms, p99 **${ms(baseline.latencies, 99)} ms**, max ${ms(baseline.latencies, 100)} ms;
while the runs fall due (${WINDOW_S + 6} s) p50 ${ms(during.latencies, 50)} ms, p99 **${ms(during.latencies, 99)} ms**, max ${ms(during.latencies, 100)} ms (${during.failed} refused or failed).

Seen from outside (a query every second, committed work only: runs due and not yet executed): the oldest was due **${round(worstOverdue, 2)} s** at worst; ${samplesOver2s} of ${samples} samples found a run more than 2 s overdue.
Progress: ${progress.join("; ")}.

${exitsMarkdown}
`;
  writeResultsSection("journeys", markdown);
  console.log(markdown);
} finally {
  await worker?.stop();
  await server?.stop();
  await closeDb();
}
await exitBench(0);
