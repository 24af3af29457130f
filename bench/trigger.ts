// `npm run bench:trigger`: autocannon against `next start` on Postgres, one run, one build:
//   (a) closed loop, 50 connections: a no-op route, then the trigger on a web-only server
//       (DISPATCHER=off), with an API key and as Shopify deliveries to a signed source (no key,
//       HMAC of the raw body, a new delivery id each), and on a server that also dispatches
//       in-process (the default);
//   (b) open loop: the trigger at a fixed arrival rate of half its own closed-loop capacity measured
//       just before (p50/p99/p99.9);
//   (c) status-webhook ingestion: signed Meta-shaped statuses POSTed to /api/webhooks/whatsapp.
// With BENCH_PROFILE=1 a further web-only server runs the trigger load under `node --cpu-prof` and
// the top of the profile is summarised. Results go to bench/RESULTS.md (section "trigger").
//
// Env: BENCH_DURATION (seconds per measurement, default 20), BENCH_WARMUP (seconds of warm-up before each, default 5), BENCH_CONNECTIONS (default 50),
// BENCH_DATABASE_URL / DATABASE_URL (server to create `sendstream_bench_trigger` on),
// BENCH_BUILD=1 (rebuild even if a build exists), NEXT_DIST_DIR (default .next-trigger), BENCH_PORT (default 3204).
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { eq, sql } from "drizzle-orm";
import { BASE_URL, ensureBuild, exitBench, freshDatabase, measureCpu, phoneNumbers, poster, sleep, startServer, summariseProfile, writeResultsSection, type CpuSplit, type ProfileLine, type Server } from "./trigger-support";
import { openLoop, percentile } from "./journeys-support";
import { measureIngestion, prepareIngestion } from "./webhook-ingestion";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const DATABASE = "sendstream_bench_trigger";
const PROFILE = process.env.BENCH_PROFILE === "1";
/** Statuses a request in the batched ingestion run (Meta batches up to 1,000 updates under load). */
const BATCHED_STATUSES = 10;
// The server decrypts the webhook app secret the bench stores: both use this key.
process.env.ENCRYPTION_KEY ??= "be0c".repeat(16);

interface Figures {
  name: string;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

async function measure(name: string, options: autocannon.Options, duration: number, connections = CONNECTIONS): Promise<Figures> {
  const result = await autocannon({ ...options, connections, duration });
  const ok = result["2xx"];
  return {
    name,
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    perSecond: (name.startsWith("no-op") ? result.requests.total : ok) / duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    max: result.latency.max,
  };
}

/**
 * Requests at a fixed arrival rate, each sent at its scheduled time whatever the answers before it
 * (journeys-support's `openLoop`), latency counted from that time. Not autocannon's `overallRate`:
 * it gives each connection a budget per second that the connection spends back to back from the
 * start of the second, so every second opens with a burst of all connections at once — a closed
 * loop at full concurrency for part of each second (measured: p50 72 ms at half the capacity).
 */
async function measureOpenLoop(name: string, rate: number, send: () => Promise<boolean>): Promise<Figures> {
  const result = await openLoop(rate, Math.round(rate * DURATION), () => send());
  const at = (p: number) => Math.round(percentile(result.latencies, p));
  return {
    name,
    requests: result.ok + result.failed,
    ok: result.ok,
    non2xx: result.failed - result.errors,
    errors: result.errors,
    perSecond: result.ok / DURATION,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: Math.round(result.latencies.at(-1) ?? 0),
  };
}

/** CPU of the server, of this benchmark's Postgres processes and of the load generator while `work` runs. */
const measureOurCpu = <T>(work: () => Promise<T>) => measureCpu(currentServer!.child.pid!, work, DATABASE);
let currentServer: Server | null = null;

async function main() {
  const loadBefore = os.loadavg();
  ensureBuild();
  const url = await freshDatabase(DATABASE);
  process.env.DATABASE_URL = url;
  const { getDb, closeDb } = await import("@/db");
  const { messages } = await import("@/db/schema");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const signedFixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const { putCampaignSource, setSourceSecret } = await import("@/lib/sources/service");
  const { SYSTEM_ACTOR } = await import("@/lib/audit/service");
  const shopifySecret = "shpss_bench_0123456789abcdef";
  {
    const seedDb = await getDb();
    const scope = { workspaceId: signedFixture.workspaceId, campaignId: signedFixture.campaignId, actor: SYSTEM_ACTOR };
    await putCampaignSource(seedDb, { ...scope, source: { kind: "shopify", topics: ["orders/create"] } });
    await setSourceSecret(seedDb, { ...scope, request: { secret: shopifySecret, overlapHours: 0 } });
  }
  const ingestion = await prepareIngestion(20_000);
  const batchedIngestion = await prepareIngestion(60_000, "batch");
  // The seeding's writes are flushed and its tables vacuumed now, so that the checkpointer and
  // autovacuum do not bill them to the measurements (CPU per request is read off every postgres process).
  const db = await getDb();
  await db.execute(sql`checkpoint`);
  await db.execute(sql`vacuum analyze`);
  const serverEnv = { DATABASE_URL: url, TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" };

  const phones = phoneNumbers(5000);
  let next = 0;
  const triggerOptions: autocannon.Options = {
    url: `${BASE_URL}/api/campaigns/${fixture.campaignId}/trigger`,
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
    requests: [
      {
        setupRequest: (request) => {
          const phone = phones[next++ % phones.length]!;
          return { ...request, body: JSON.stringify({ phone, order: `ORD-${next}`, first_name: "Bench", amount: 42 }) };
        },
      },
    ],
  };
  let delivery = 0;
  const signedOptions: autocannon.Options = {
    url: `${BASE_URL}/api/campaigns/${signedFixture.campaignId}/trigger`,
    method: "POST",
    requests: [
      {
        setupRequest: (request) => {
          const phone = phones[next++ % phones.length]!;
          const body = JSON.stringify({ phone, order: `ORD-${next}`, first_name: "Bench", amount: 42 });
          return {
            ...request,
            body,
            headers: {
              "content-type": "application/json",
              "x-shopify-topic": "orders/create",
              "x-shopify-webhook-id": `bench-${process.pid}-${delivery++}`,
              "x-shopify-hmac-sha256": createHmac("sha256", shopifySecret).update(body).digest("base64"),
            },
          };
        },
      },
    ],
  };
  const postTrigger = poster(`${BASE_URL}/api/campaigns/${fixture.campaignId}/trigger`, { "content-type": "application/json", "x-api-key": fixture.apiKey });
  const triggerRequest = async () =>
    (await postTrigger(JSON.stringify({ phone: phones[next++ % phones.length]!, order: `ORD-${next}`, first_name: "Bench", amount: 42 }))) === 202;
  // The same route stack (withWorkspace, problem+json) answering without any database work.
  const noopOptions: autocannon.Options = { url: `${BASE_URL}/outbound/${fixture.campaignId}`, method: "GET" };
  // The same again for a request shaped like a trigger (headers and a JSON body, which is not read):
  // what receiving such a request costs before the handler does anything.
  const noopWithBodyOptions: autocannon.Options = {
    ...triggerOptions,
    url: `${BASE_URL}/outbound/${fixture.campaignId}`,
    method: "PUT",
  };
  const stored = async () =>
    Number((await db.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.campaignId, fixture.campaignId)))[0]!.n);

  let server: Server | null = null;
  try {
    console.log(`Web-only server (DISPATCHER=off): ${DURATION}s per measurement after ${WARMUP}s of warm-up, ${CONNECTIONS} connections …`);
    server = currentServer = await startServer({ ...serverEnv, DISPATCHER: "off" });
    await measure("warm-up no-op", noopOptions, WARMUP);
    const { result: noop, cpu: noopCpu } = await measureOurCpu(() => measure("no-op route (GET /outbound/{id} → 405, no database)", noopOptions, DURATION));
    const { result: noopWithBody, cpu: noopWithBodyCpu } = await measureOurCpu(() =>
      measure("no-op with the trigger's body (PUT /outbound/{id} → 405, body not read)", noopWithBodyOptions, DURATION),
    );
    await measure("warm-up trigger", triggerOptions, WARMUP);
    // The warm-up created the contacts; autovacuum would analyze them at some moment of the first
    // minute, after which Postgres plans with their statistics. Doing it now keeps runs comparable.
    await db.execute(sql`analyze contacts`);
    // The warm-up's last requests (one per connection) may still be answered: they land before the count.
    await sleep(1000);
    const before = await stored();
    const { result: webOnly, cpu: webOnlyCpu } = await measureOurCpu(() => measure("trigger, web only (DISPATCHER=off)", triggerOptions, DURATION));
    const storedWebOnly = (await stored()) - before;
    await measure("warm-up signed", signedOptions, WARMUP);
    const { result: signed, cpu: signedCpu } = await measureOurCpu(() =>
      measure("trigger, web only, Shopify-signed source (no key)", signedOptions, DURATION),
    );

    // Half of what the trigger itself was just measured to accept: a rate the server keeps up with,
    // so the latencies are those of a request, not of a queue that grows for the whole run.
    const rate = Math.max(1, Math.round(webOnly.perSecond / 2));
    console.log(`Open loop: ${rate} requests/s …`);
    const open = await measureOpenLoop(`trigger, open loop at ${rate}/s (web only)`, rate, triggerRequest);

    console.log("Status webhooks …");
    const { result: webhooks, cpu: webhooksCpu } = await measureOurCpu(() =>
      measureIngestion(ingestion, { connections: CONNECTIONS, duration: DURATION }),
    );
    const { result: batchedWebhooks, cpu: batchedWebhooksCpu } = await measureOurCpu(() =>
      measureIngestion(batchedIngestion, { connections: CONNECTIONS, duration: DURATION, statusesPerRequest: BATCHED_STATUSES }),
    );
    await server.stop();

    console.log("Web + in-process dispatch server …");
    server = await startServer(serverEnv);
    await measure("warm-up trigger", triggerOptions, WARMUP);
    const withDispatch = await measure("trigger, web + in-process dispatch", triggerOptions, DURATION);
    await server.stop();

    let profileLines: ProfileLine[] = [];
    if (PROFILE) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-prof-"));
      console.log(`Profiling the web-only server under the trigger load (${dir}) …`);
      server = await startServer({ ...serverEnv, DISPATCHER: "off" }, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
      await measure("warm-up trigger", triggerOptions, WARMUP);
      await measure("profiled trigger", triggerOptions, DURATION);
      await server.stop();
      const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
      const biggest = files.map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
      if (biggest) profileLines = summariseProfile(biggest);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    server = null;
    const loadAfter = os.loadavg();

    const ratioWeb = webOnly.perSecond / noop.perSecond;
    const ratioDispatch = withDispatch.perSecond / noop.perSecond;
    const ingestionRatio = webhooks.statusesPerSecond / webOnly.perSecond;
    const pass = (ok: boolean) => (ok ? "PASS" : "MISSED");
    const row = (f: Figures) =>
      `| ${f.name} | ${f.perSecond.toFixed(0)} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.p999} | ${f.max} | ${f.non2xx} | ${f.errors} |`;
    const load = (values: number[]) => values.map((n) => n.toFixed(1)).join(" / ");
    const perRequest = (seconds: number, requests: number) => ((seconds / Math.max(1, requests)) * 1000).toFixed(2);
    const cpuRow = (label: string, cpu: CpuSplit, requests: number) =>
      `  - ${label}: server ${perRequest(cpu.server, requests)} ms, Postgres ${perRequest(cpu.postgres, requests)} ms, load generator ${perRequest(cpu.client, requests)} ms (${requests} requests; server at ${((cpu.server / DURATION) * 100).toFixed(0)} % of a core, Postgres ${((cpu.postgres / DURATION) * 100).toFixed(0)} %)`;
    const cpuCeiling = (cpu: CpuSplit, requests: number) => (os.cpus().length * requests) / Math.max(1e-9, cpu.server + cpu.postgres);
    const markdown = `
## Trigger endpoint (\`npm run bench:trigger\`)

Run ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}. Load average (1 / 5 / 15 min) before the run ${load(loadBefore)}, after ${load(loadAfter)}${
      loadBefore[0]! > os.cpus().length ? ": **other work was running on the machine** (other test suites and builds), so absolute figures are depressed and noisy; the ratios were taken minutes apart under the same conditions" : ""
    }. One production build (\`next start\`) on Postgres; autocannon, the server and Postgres share the machine. ${DURATION} s per measurement, each after its own ${WARMUP} s warm-up.

| measurement | accepted/s (no-op: answered/s) | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | non-2xx | errors |
|---|---|---|---|---|---|---|---|---|
${row(noop)}
${row(noopWithBody)}
${row(webOnly)}
${row(signed)}
${row(withDispatch)}
${row(open)}

- (a) Closed loop, ${CONNECTIONS} connections: web-only trigger / no-op **${ratioWeb.toFixed(2)}×** (target ≥ 0.6×, issue 32) — ${pass(ratioWeb >= 0.6)};
  web + in-process dispatch / no-op **${ratioDispatch.toFixed(2)}×** (target ≥ 0.5×) — ${pass(ratioDispatch >= 0.5)}.
  Shopify-signed deliveries (source lookup, HMAC of the raw body, the delivery id as idempotency key) / API-key trigger, web only: **${(signed.perSecond / Math.max(1e-9, webOnly.perSecond)).toFixed(2)}×** (no target).
- (b) Open loop at ${Math.round(webOnly.perSecond / 2)} requests/s (half the web-only trigger's capacity measured above; each request sent at its scheduled time, latency from that time), web only: p50 ${open.p50} ms, **p99 ${open.p99} ms** (target < 50 ms) — ${pass(open.p99 < 50)}, p99.9 ${open.p999} ms; ${open.ok} accepted of ${open.requests}.
  (Sent by the bench process through a keep-alive \`http.Agent\`, a connection per request in flight. Not autocannon's \`overallRate\`: it gives each connection a budget per second spent back to back from the start of the second, a burst every second; with it this row read p50 72 ms, p99 295 ms at 343/s on the same quiet machine. Nor \`fetch\`: its client CPU, on cores shared with the server, read p50 8 ms, p99 255 ms at 341/s.)
- (c) Status webhooks: ${webhooks.ok} signed POSTs (one status each: sent, delivered, read in turn for 20,000 messages that exist), **${webhooks.statusesPerSecond.toFixed(0)} statuses/s** taken in (${webhooks.appliedPerSecond.toFixed(0)}/s changed a message; the \`sent\` ones are no-ops for messages already sent), p50 ${webhooks.p50} ms, p99 ${webhooks.p99} ms, ${webhooks.non2xx} non-2xx; ${webhooks.readInDatabase} messages stored as \`read\` afterwards.
  Ingestion / web-only trigger accepted rate: **${ingestionRatio.toFixed(2)}×** (target ≥ 3×) — ${pass(ingestionRatio >= 3)}.
  Batched as Meta sends them under load, ${BATCHED_STATUSES} statuses a POST (60,000 other messages): ${batchedWebhooks.ok} POSTs, **${batchedWebhooks.statusesPerSecond.toFixed(0)} statuses/s** (${(batchedWebhooks.statusesPerSecond / webOnly.perSecond).toFixed(2)}× the trigger's rate; not the target's measure), p50 ${batchedWebhooks.p50} ms, p99 ${batchedWebhooks.p99} ms, ${batchedWebhooks.non2xx} non-2xx; ${batchedWebhooks.readInDatabase} messages stored as \`read\` afterwards.
- Messages stored during the measured web-only run: ${storedWebOnly} for ${webOnly.ok} responses 202 counted by autocannon (${
      storedWebOnly >= webOnly.ok && storedWebOnly <= webOnly.ok + CONNECTIONS ? "consistent: requests in flight when the clock stopped are stored but not counted" : "MISMATCH"
    }).
- Where the CPU goes (process CPU time from \`/proc\` during the measurement, per request answered; the machine has ${os.cpus().length} cores, ${(os.cpus().length * 1000).toFixed(0)} ms of CPU a second):
${cpuRow("no-op route", noopCpu, noop.requests)}
${cpuRow("no-op with the trigger's body", noopWithBodyCpu, noopWithBody.requests)}
${cpuRow("trigger, web only", webOnlyCpu, webOnly.ok)}
${cpuRow("trigger, web only, Shopify-signed", signedCpu, signed.ok)}
${cpuRow("status webhook (one status a request)", webhooksCpu, webhooks.ok)}
${cpuRow(`status webhook (${BATCHED_STATUSES} statuses a request)`, batchedWebhooksCpu, batchedWebhooks.ok)}
  At the web-only trigger's cost (server and Postgres), the ${os.cpus().length} cores doing nothing else (no load generator) would accept at most **${cpuCeiling(webOnlyCpu, webOnly.ok).toFixed(0)} requests/s**, against the ${(0.6 * noop.perSecond).toFixed(0)}/s the 0.6× target asks for.
  Per accepted web-only trigger: server **${perRequest(webOnlyCpu.server, webOnly.ok)} ms** (target ≤ 1.2 ms) — ${pass(webOnlyCpu.server / webOnly.ok <= 0.0012)}, Postgres **${perRequest(webOnlyCpu.postgres, webOnly.ok)} ms** (target ≤ 0.5 ms) — ${pass(webOnlyCpu.postgres / webOnly.ok <= 0.0005)}.
- Each trigger request is a distinct object body (5,000 phones rotating, so contacts are both inserted and updated); the rate limits were raised for the run.
${
  profileLines.length
    ? `
Top of the CPU profile (\`node --cpu-prof\` on \`next start\`, web only, ${DURATION} s of the closed-loop trigger load; self time):

| self % | function | where |
|---|---|---|
${profileLines.map((line) => `| ${line.selfPercent.toFixed(1)} | \`${line.name}\` | ${line.where ? `\`${line.where}\`` : ""} |`).join("\n")}
`
    : ""
}
Database round trips of an accepted request (asserted by \`app/api/campaigns/[id]/trigger/route.test.ts\` and, for signed sources, \`signed.test.ts\`): the API-key lookup (or the signed source's); one
statement with campaign, template, sender and stored contacts (which claims rate-limit leases for about one request in 24 of a key at the
default limit and one in 12 of a campaign, one in 50 with this run's raised limits, and otherwise only reads); one statement with the contact upserts and message inserts. The campaign's stored configuration is parsed and its request schema compiled once per campaign version.
`;
    writeResultsSection("trigger", markdown);
    console.log(markdown);
  } finally {
    await server?.stop();
    await closeDb();
  }
}

main().then(
  () => exitBench(Number(process.exitCode ?? 0)),
  (error: unknown) => {
    console.error(error);
    return exitBench(1);
  },
);
