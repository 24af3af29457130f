// `npm run bench:trigger`: autocannon against `next start` on Postgres — the trigger endpoint and a
// no-op route of the same server in the same run. Results go to bench/RESULTS.md (section "trigger").
//
// Env: BENCH_DURATION (seconds per measurement, default 20), BENCH_CONNECTIONS (default 50),
// BENCH_DATABASE_URL / DATABASE_URL (server to create `sendstream_bench_trigger` on),
// BENCH_BUILD=1 (rebuild even if a build exists), NEXT_DIST_DIR (default .next-trigger).
import os from "node:os";
import autocannon from "autocannon";
import { eq, sql } from "drizzle-orm";
import { BASE_URL, ensureBuild, freshDatabase, phoneNumbers, startServer, writeResultsSection } from "./trigger-support";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 5;

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
  max: number;
}

async function measure(name: string, options: autocannon.Options, duration: number): Promise<Figures> {
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration });
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
    max: result.latency.max,
  };
}

async function main() {
  ensureBuild();
  const url = await freshDatabase("sendstream_bench_trigger");
  process.env.DATABASE_URL = url;
  const { getDb, closeDb } = await import("@/db");
  const { messages } = await import("@/db/schema");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const db = await getDb();

  const server = await startServer({ DATABASE_URL: url, TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" });
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
  // The same route stack (runRoute, problem+json) answering without any database work.
  const noopOptions: autocannon.Options = { url: `${BASE_URL}/outbound/${fixture.campaignId}`, method: "GET" };

  try {
    // No-op first, while nothing is queued; then the trigger, whose warm-up leaves the dispatcher
    // busy sending (as it would be in production under that load).
    console.log(`Measuring ${DURATION}s per route after ${WARMUP}s of warm-up, ${CONNECTIONS} connections …`);
    await measure("warm-up no-op", noopOptions, WARMUP);
    const noop = await measure("no-op route (GET /outbound/{id} → 405, no database)", noopOptions, DURATION);
    await measure("warm-up trigger", triggerOptions, WARMUP);
    const [before] = await db.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.campaignId, fixture.campaignId));
    const trigger = await measure("trigger (POST /api/campaigns/{id}/trigger → 202)", triggerOptions, DURATION);
    const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.campaignId, fixture.campaignId));
    const stored = Number(after!.n) - Number(before!.n);

    const ratio = trigger.perSecond / noop.perSecond;
    const row = (f: Figures) =>
      `| ${f.name} | ${f.perSecond.toFixed(0)} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.max} | ${f.non2xx} | ${f.errors} |`;
    const markdown = `
## Trigger endpoint (\`npm run bench:trigger\`)

Run ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), load average before the run ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" / ")}; \`next start\` (production build) on Postgres, autocannon ${CONNECTIONS} connections, ${DURATION} s per route, each after its own ${WARMUP} s warm-up (no-op first, then the trigger), both in the same run against the same server. The server, Postgres and autocannon share the machine.

| route | accepted/s (no-op: answered/s) | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors |
|---|---|---|---|---|---|---|---|
${row(noop)}
${row(trigger)}

- Trigger / no-op throughput: **${ratio.toFixed(2)}×** (target ≥ 0.85×); trigger p99 **${trigger.p99} ms** (target < 100 ms).
- Messages stored during the measured trigger run: ${stored} for ${trigger.ok} responses 202 counted by autocannon (${
      stored >= trigger.ok && stored <= trigger.ok + CONNECTIONS ? "consistent: requests still in flight when the clock stopped are stored but not counted" : "MISMATCH"
    }).
- Each request is a distinct object body (5,000 phones rotating, so contacts are both inserted and updated); the rate limits were raised for the run (key and campaign) so every request is counted and accepted.
- Dispatch runs as in production: each accepted request calls \`dispatchSoon()\` after its response (sandbox sender, 80 msg/s), so sending competes with accepting for the same CPU and database.

Database round trips of an accepted request (asserted by \`app/api/campaigns/[id]/trigger/route.test.ts\`):
1. \`select … from api_keys where key_hash = $1 and deleted_at is null\` (authentication).
2. One statement: \`with cmp as (select campaign) , rl as (insert into rate_limit_counters … on conflict do update … returning)\` selecting the counters, campaign, template, sender and the stored contacts for the phones in the body (and the stored idempotent response when \`Idempotency-Key\` is sent).
3. One statement: contact upserts (\`on conflict do update\`, attributes merged) and the \`queued\` message inserts (plus the idempotency claim when a key is sent), atomic as a single statement.

No "last used" write per request: the key's \`last_used_at\` is written at most once a minute (conditional UPDATE after the response).
`;
    writeResultsSection("trigger", markdown);
    console.log(markdown);
  } finally {
    await server.stop();
    await closeDb();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
