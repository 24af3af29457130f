// `npx tsx bench/trigger-inprocess.ts`: the trigger route handler called in-process (no HTTP, no
// Next), on Postgres, with N concurrent callers: CPU per accepted request of this process (our code,
// drizzle, postgres.js) and of the Postgres backends serving this database, and the statements one
// request sends. For finding where a trigger's time goes; `npm run bench:trigger` is the measure.
//
// Env: BENCH_DATABASE_URL / DATABASE_URL (server), BENCH_REQUESTS (default 4000), BENCH_CONCURRENCY (default 8).
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import { sql } from "drizzle-orm";
import { freshDatabase, phoneNumbers } from "./trigger-support";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** User + system CPU seconds of the processes (`system` alone with `systemOnly`). */
function cpuOf(pids: number[], systemOnly = false): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      total += ((systemOnly ? 0 : Number(fields[11])) + Number(fields[12])) / TICKS;
    } catch {
      // ended
    }
  }
  return total;
}

async function main() {
  const name = "sendstream_bench_trigger_inproc";
  const url = await freshDatabase(name);
  process.env.DATABASE_URL = url;
  process.env.DISPATCHER = "off";
  process.env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE = "1000000000";
  const { getDb, closeDb } = await import("@/db");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const { withCountingGetDb } = await import("@/lib/testing/counting-db");
  const { flushTriggerRequests } = await import("@/lib/trigger/requests");
  const route = await import("@/app/api/campaigns/[id]/trigger/route");
  const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const db = await getDb();
  const phones = phoneNumbers(5000);
  let next = 0;
  const call = () => {
    const phone = phones[next++ % phones.length]!;
    const request = new Request(`http://localhost/api/campaigns/${fixture.campaignId}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
      body: JSON.stringify({ phone, order: `ORD-${next}`, first_name: "Bench", amount: 42 }),
    });
    return route.POST(request, { params: Promise.resolve({ id: fixture.campaignId }) });
  };
  const run = async (count: number) => {
    let left = count;
    let accepted = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) {
          const response = await call();
          if (response.status === 202) accepted++;
          else throw new Error(`status ${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
        }
      }),
    );
    await flushTriggerRequests();
    return accepted;
  };
  await run(2000);
  await db.execute(sql`analyze contacts`);
  const statements = await withCountingGetDb(async (recorded) => {
    await run(1);
    return [...recorded];
  });
  console.log(`Statements of one accepted request (${statements.length}):\n${statements.map((s) => `  - ${s.replace(/\s+/g, " ").slice(0, 160)}`).join("\n")}`);
  const backends = async () =>
    (await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { pid: number }[];
  await run(200);
  const pids = (await backends()).map((b) => Number(b.pid));
  // Counted by Postgres for this database alone (the server may be shared): exact, unlike CPU time.
  const dbStats = async () =>
    ((await db.execute(sql`select pg_stat_force_next_flush()`), await db.execute(
      sql`select xact_commit::float8 as commits, blks_hit::float8 as hits, tup_inserted::float8 as inserted, tup_updated::float8 as updated
        from pg_stat_database where datname = current_database()`,
    )) as unknown as { commits: number; hits: number; inserted: number; updated: number }[])[0]!;
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const statsBefore = await dbStats();
  const pgBefore = cpuOf(pids);
  const pgSystemBefore = cpuOf(pids, true);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const accepted = await run(REQUESTS);
  const elapsed = performance.now() - started;
  const own = process.cpuUsage(ownBefore);
  const pgAfter = cpuOf(pids);
  const pgSystem = cpuOf(pids, true) - pgSystemBefore;
  // An idle backend reports its counts within 10 s.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const statsAfter = await dbStats();
  const per = (key: keyof typeof statsAfter) => ((statsAfter[key] - statsBefore[key]) / accepted).toFixed(2);
  console.log(
    `${accepted} accepted in ${(elapsed / 1000).toFixed(1)} s (${((accepted / elapsed) * 1000).toFixed(0)}/s, ${CONCURRENCY} callers): ` +
      `this process ${(((own.user + own.system) / 1000) / accepted).toFixed(3)} ms CPU a request, ` +
      `Postgres (${pids.length} backends) ${(((pgAfter - pgBefore) * 1000) / accepted).toFixed(3)} ms (system ${((pgSystem * 1000) / accepted).toFixed(3)} ms); ` +
      `per request: ${per("commits")} transactions, ${per("inserted")} rows inserted, ${per("updated")} updated, ${per("hits")} buffer hits`,
  );
  await closeDb();
  const { default: postgres } = await import("postgres");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const adminSql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  await adminSql.unsafe(`drop database if exists "${name}" with (force)`);
  await adminSql.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
