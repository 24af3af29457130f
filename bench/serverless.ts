// `npm run bench:serverless`: sending on a serverless platform, where no loop runs and no cron calls
// come: `next start` with DISPATCH_CHAIN=on (serverless mode: no in-process loop, as on Vercel), so
// background work runs only after responses and in the dispatch chain (lib/jobs/chain.ts: a cron-route hop answers 202, works after the
// response and hands over to the next hop before its time limit). FUNCTION_TIME_LIMIT_MS=60000 cuts every
// hop's work at 60 s after its request started (as Vercel's maxDuration); the server logs each hop's end,
// and the bench checks none outlived the limit. Nothing calls the cron route.
//   A bulk campaign of BENCH_CONTACTS (20,000; --quick: 2,000) at BENCH_RATE (80) msg/s through the
//   sandbox, launched through the API; meanwhile BENCH_TRIGGERS_PER_SECOND (2) trigger requests a second
//   through the API (an API key) on a campaign of another workspace (another number).
//   Targets: the bulk send within 1.1 × the ideal (contacts / rate), never above the rate in any 1-second
//   window; triggers queued → sent p99 < 2 s.
// Postgres only, in a fresh database of its own (dropped at the end). Results replace the "serverless"
// section of bench/RESULTS.md.
//
// Options: --quick (2,000 contacts), --skip-build (reuse the build in NEXT_DIST_DIR, else build if missing),
// --dispatcher-off (also DISPATCHER=off: trigger responses start no send either, only the chain sends).
// Env: BENCH_DATABASE_URL / DATABASE_URL (server to create the database on), BENCH_PORT, NEXT_DIST_DIR.
import os from "node:os";
import postgres from "postgres";
import { benchDatabaseUrl, BASE_URL, ensureBuild, freshDatabase, measureCpu, sleep, startServer, writeResultsSection, type Server } from "./trigger-support";

const QUICK = process.argv.includes("--quick");
const SKIP_BUILD = process.argv.includes("--skip-build");
const DISPATCHER_OFF = process.argv.includes("--dispatcher-off");
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? (QUICK ? 2_000 : 20_000));
const RATE = Number(process.env.BENCH_RATE ?? 80);
const TRIGGERS_PER_SECOND = Number(process.env.BENCH_TRIGGERS_PER_SECOND ?? 2);
const FUNCTION_LIMIT_MS = 60_000;
const TARGETS = { finishFactor: 1.1, triggerP99S: 2 };
const DATABASE = "sendstream_bench_serverless";

const COMPONENTS = [{ type: "BODY", text: "Hi {{1}}, use code {{2}} this week." }];
const MESSAGE_CONFIG = {
  variables: [
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "code", fallback: "WELCOME" },
  ],
};

interface Hop {
  token: string;
  durationMs: number;
  ending: string;
  at: number;
}

const HOP_LINE = /\[jobs\] chain hop (\S+) ended after (\d+) ms of \d+ ms: (.+?) \(\d+ runs\)/;

async function dropDatabase(): Promise<void> {
  const admin = new URL(benchDatabaseUrl(DATABASE));
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${DATABASE}" with (force)`).catch((error: unknown) => console.error(error));
  await sql.end();
}

async function main() {
  const loadBefore = os.loadavg();
  if (!SKIP_BUILD) ensureBuild();
  const url = await freshDatabase(DATABASE);
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_MAX ??= "4";
  (process.env as Record<string, string>).NODE_ENV ??= "test";
  const { getDb, closeDb } = await import("@/db");
  const { queryRows } = await import("@/db/rows");
  const { sql, eq } = await import("drizzle-orm");
  const { apiKeys, senders, templates } = await import("@/db/schema");
  const { createTestAccount } = await import("@/lib/testing/factories");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const { displayApiKey, generateApiKey, hashApiKey } = await import("@/lib/api-keys/format");
  const { getSenderRow } = await import("@/lib/senders/service");
  const { SANDBOX_EXTERNAL_PREFIX } = await import("@/lib/templates/service");
  await import("@/lib/engine/campaign-kinds");
  const { createCampaign } = await import("@/lib/campaigns/service");
  const { newId } = await import("@/lib/crypto/random");
  const db = await getDb();

  // The bulk campaign's workspace: a sandbox number with room for the campaign's rate, a list, a key.
  const account = await createTestAccount({ name: "Serverless" });
  const workspaceId = account.workspaceId;
  await getSenderRow(db, workspaceId);
  await db.update(senders).set({ throughputPerSecond: Math.ceil(RATE * 1.1) }).where(eq(senders.workspaceId, workspaceId));
  const templateId = newId("tpl");
  await db.insert(templates).values({
    id: templateId, workspaceId, externalId: `${SANDBOX_EXTERNAL_PREFIX}bench`, name: "bench_promo", language: "en_US",
    category: "MARKETING", status: "APPROVED", parameterFormat: "POSITIONAL", components: COMPONENTS,
  });
  const listId = newId("lst");
  await queryRows(db, sql`insert into contact_lists (id, workspace_id, name) values (${listId}, ${workspaceId}, 'Everyone')`);
  // Marketing messages go to contacts who agreed to them.
  await queryRows(
    db,
    sql`insert into contacts (id, workspace_id, phone_number, name, attributes, consent_status)
      select 'ctc_sl' || i, ${workspaceId}, '+1415' || lpad(i::text, 7, '0'), 'Customer ' || i, jsonb_build_object('code', 'C' || i), 'subscribed'
      from generate_series(1, ${CONTACTS}) i`,
  );
  await queryRows(db, sql`insert into contact_list_members (list_id, contact_id) select ${listId}, id from contacts where workspace_id = ${workspaceId}`);
  await queryRows(db, sql`analyze`);
  const campaign = await createCampaign(db, workspaceId, {
    kind: "bulk", name: "Serverless bulk", audience: { listIds: [listId], segmentIds: [] }, templateId, messageConfig: MESSAGE_CONFIG, sendRatePerSecond: RATE,
  });
  const bulkKey = generateApiKey();
  await db.insert(apiKeys).values({ id: newId("key"), workspaceId, name: "Bench", keyHash: hashApiKey(bulkKey), displayKey: displayApiKey(bulkKey), createdBy: account.id });
  // The triggers: another workspace, so another number.
  const triggers = await createTriggerFixture({ rateLimitPerMinute: 1_000_000 });

  let server: Server | null = null;
  const hops: Hop[] = [];
  const lines: string[] = [];
  let failed = false;
  try {
    server = await startServer({
      DATABASE_URL: url,
      DATABASE_POOL_MAX: "10",
      ...(DISPATCHER_OFF ? { DISPATCHER: "off" } : {}),
      DISPATCH_CHAIN: "on",
      FUNCTION_TIME_LIMIT_MS: String(FUNCTION_LIMIT_MS),
      TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    let pending = "";
    server.child.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) {
        const match = HOP_LINE.exec(line);
        if (match) hops.push({ token: match[1]!, durationMs: Number(match[2]), ending: match[3]!, at: Date.now() });
      }
    });

    console.log(`Launching ${CONTACTS.toLocaleString("en-US")} contacts at ${RATE}/s; ${TRIGGERS_PER_SECOND} triggers/s; no cron calls …`);
    const launchedAt = Date.now();
    const launch = await fetch(`${BASE_URL}/api/v1/campaigns/${campaign.id}/launch`, { method: "POST", headers: { "x-api-key": bulkKey, "content-type": "application/json" }, body: "{}" });
    if (!launch.ok) throw new Error(`launch answered ${launch.status}: ${await launch.text()}`);

    let stop = false;
    let sentTriggers = 0;
    let refusedTriggers = 0;
    const producer = (async () => {
      const interval = 1000 / TRIGGERS_PER_SECOND;
      let next = Date.now();
      const inFlight = new Set<Promise<void>>();
      while (!stop) {
        next += interval;
        sentTriggers += 1;
        const n = sentTriggers;
        const request = fetch(`${BASE_URL}/api/campaigns/${triggers.campaignId}/trigger`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": triggers.apiKey },
          body: JSON.stringify({ phone: `+1650555${String(n % 10_000).padStart(4, "0")}`, first_name: "Ada", order: `A-${n}` }),
        }).then(async (response) => {
          if (response.status !== 202) refusedTriggers += 1;
          await response.body?.cancel();
        }, () => void (refusedTriggers += 1));
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
      }
      await Promise.all(inFlight);
    })();

    const ideal = CONTACTS / RATE;
    const giveUpAt = launchedAt + (ideal * 2.5 + 90) * 1000;
    let left = CONTACTS;
    const { cpu } = await measureCpu(server.child.pid!, async () => {
      for (;;) {
        await sleep(2_000);
        const [row] = await queryRows<{ left: number; sent: number }>(
          db,
          sql`select (select count(*) from messages where campaign_id = ${campaign.id} and status in ('queued', 'sending'))::int
              + (select coalesce(sum(cardinality(contact_ids)), 0) from bulk_snapshot_chunks where campaign_id = ${campaign.id})::int as left,
            (select count(*) from messages where campaign_id = ${campaign.id} and sent_at is not null)::int as sent`,
        );
        left = Number(row?.left ?? 0);
        const elapsed = (Date.now() - launchedAt) / 1000;
        if (Math.round(elapsed) % 20 < 2) console.log(`  ${elapsed.toFixed(0)} s: ${row?.sent} sent, ${left} left, ${hops.length} hops ended`);
        if (left === 0 && Number(row?.sent) > 0) break;
        if (Date.now() > giveUpAt) {
          console.log("Giving up: the bulk send is far behind.");
          failed = true;
          break;
        }
      }
    });
    const sendingS = (Date.now() - launchedAt) / 1000;
    stop = true;
    await producer;
    // The last triggers' drains.
    await sleep(3_000);

    const [span] = await queryRows<{ first: string; last: string; sent: number; total: number }>(
      db,
      sql`select min(sent_at) as first, max(sent_at) as last, count(sent_at)::int as sent, count(*)::int as total from messages where campaign_id = ${campaign.id}`,
    );
    const [peak] = await queryRows<{ peak: number }>(
      db,
      sql`select coalesce(max(n), 0)::int as peak from (
          select count(*) over (order by sent_at range between current row and interval '999 milliseconds' following) as n
          from messages where campaign_id = ${campaign.id} and sent_at is not null) w`,
    );
    const [latency] = await queryRows<{ n: number; stored: number; p50: number; p99: number; max: number; over: number }>(
      db,
      sql`select count(sent_at)::int as n, count(*)::int as stored,
          percentile_cont(0.5) within group (order by extract(epoch from sent_at - created_at))::float as p50,
          percentile_cont(0.99) within group (order by extract(epoch from sent_at - created_at))::float as p99,
          max(extract(epoch from sent_at - created_at))::float as max,
          (count(*) filter (where sent_at - created_at >= interval '2 seconds'))::int as over
        from messages where campaign_id = ${triggers.campaignId}`,
    );
    const [twice] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from messages where campaign_id = ${campaign.id} and attempts > 1`);
    const spanS = (new Date(span!.last).getTime() - new Date(span!.first).getTime()) / 1000;
    const launchToLastS = (new Date(span!.last).getTime() - launchedAt) / 1000;
    const maxHopMs = Math.max(0, ...hops.map((hop) => hop.durationMs));
    const endings = new Map<string, number>();
    for (const hop of hops) {
      const key = hop.ending.replace(/:.*/, "");
      endings.set(key, (endings.get(key) ?? 0) + 1);
    }
    const finishOk = !failed && spanS <= ideal * TARGETS.finishFactor && Number(span?.sent) === CONTACTS;
    const peakOk = Number(peak?.peak ?? 0) <= RATE;
    const triggerOk = Number(latency?.p99 ?? Infinity) < TARGETS.triggerP99S && Number(latency?.n) === Number(latency?.stored);
    const hopsOk = hops.length > 0 && maxHopMs <= FUNCTION_LIMIT_MS;
    console.log({ span, spanS, launchToLastS, ideal, peak, latency, twice, sentTriggers, refusedTriggers, hops: hops.length, maxHopMs, endings: Object.fromEntries(endings) });
    const loadAfter = os.loadavg();
    const cpuModel = os.cpus()[0]?.model ?? "unknown CPU";
    lines.push(
      "## Serverless (chained dispatch) (`npm run bench:serverless`)",
      "",
      `Run ${new Date().toISOString()} on ${os.cpus().length} cores (${cpuModel}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; load average (1 / 5 / 15 min) ${loadBefore.map((n) => n.toFixed(1)).join(" / ")} before, ${loadAfter
        .map((n) => n.toFixed(1))
        .join(" / ")} after (the machine is shared with other work). One production build (\`next start\`) on Postgres with \`DISPATCH_CHAIN=on\`${DISPATCHER_OFF ? " and `DISPATCHER=off` (trigger responses start no send: only the chain sends)" : " (as on Vercel: no loop; trigger responses start a send after them)"}: no cron call; work runs only after responses and in the dispatch chain. Every hop's work is cut at ${FUNCTION_LIMIT_MS / 1000} s after its request started (\`FUNCTION_TIME_LIMIT_MS\`, as Vercel's \`maxDuration\`).${QUICK ? " **Quick run** (`--quick`)." : ""}`,
      "",
      `${CONTACTS.toLocaleString("en-US")} contacts launched through the API (\`POST /api/v1/campaigns/{id}/launch\`, an API key) at ${RATE} msg/s through the sandbox sender (throughput ${Math.ceil(RATE * 1.1)}/s), while ${TRIGGERS_PER_SECOND} trigger requests a second went to a campaign of another workspace (another number) through \`POST /api/campaigns/{id}/trigger\`. Measured from the stored \`sent_at\`/\`created_at\` of each message and the server's log of each hop's end.`,
      "",
      "| measure | value | target | result |",
      "|---|---|---|---|",
      `| bulk: first to last send | **${spanS.toFixed(1)} s** (ideal ${ideal.toFixed(1)} s, ×${(spanS / ideal).toFixed(3)}); launch response to last send ${launchToLastS.toFixed(1)} s | ≤ ${TARGETS.finishFactor} × ideal | ${finishOk ? "pass" : "FAIL"} |`,
      `| bulk: most sends in any 1-second window | **${peak?.peak}** | ≤ ${RATE} | ${peakOk ? "pass" : "FAIL"} |`,
      `| bulk: sent of recipients | ${span?.sent} of ${CONTACTS} (${twice?.n} rows claimed more than once: handed back at a hop's end or the limit, each sent once) | all, once | ${Number(span?.sent) === CONTACTS ? "pass" : "FAIL"} |`,
      `| triggers: queued → sent (${latency?.n} sent of ${latency?.stored} stored; ${sentTriggers} requests, ${refusedTriggers} not answered 202) | p50 ${Number(latency?.p50).toFixed(2)} s, **p99 ${Number(latency?.p99).toFixed(2)} s**, max ${Number(latency?.max).toFixed(2)} s; ${latency?.over} at 2 s or more | p99 < ${TARGETS.triggerP99S} s | ${triggerOk ? "pass" : "FAIL"} |`,
      `| CPU while sending (${sendingS.toFixed(0)} s; 2 cores = ${(2 * sendingS).toFixed(0)} CPU-s) | server ${cpu.server.toFixed(0)} CPU-s (${((100 * cpu.server) / sendingS).toFixed(0)} % of a core), Postgres ${cpu.postgres.toFixed(0)} CPU-s (${((100 * cpu.postgres) / sendingS).toFixed(0)} %), this bench ${cpu.client.toFixed(0)} CPU-s | | |`,
      `| chain: hops | ${hops.length} hops ended (${[...endings].map(([ending, n]) => `${n} ${ending}`).join(", ")}); the longest ran ${(maxHopMs / 1000).toFixed(1)} s after its request started | none past ${FUNCTION_LIMIT_MS / 1000} s | ${hopsOk ? "pass" : "FAIL"} |`,
      "",
    );
    if (!finishOk || !peakOk || !triggerOk || !hopsOk) failed = true;
  } finally {
    await server?.stop();
    await closeDb();
    await dropDatabase();
  }
  if (lines.length > 0) writeResultsSection("serverless", lines.join("\n"));
  console.log(lines.join("\n"));
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
