// `npm run test:reliability` (short mode: `-- --short`, RELIABILITY_SHORT=1 or RELIABILITY_MODE=short,
// as in CI; RELIABILITY_REPORT=<file> writes `{ passed, failed, failures }` there). Everything runs
// on its own Postgres database against a fake WhatsApp Cloud API (one server, routed by the
// sender's phone number id, counting requests by arrival time and recipient).
//
// 1. Triggers at full speed (20,000; short: 1,000) against `next start` on Postgres while a fake
//    WhatsApp Cloud API fails 30 % of sends (HTTP 500, error 130429, requests that never answer), and
//    the server is killed (SIGKILL) once mid-run and restarted. Every logical request carries its
//    own Idempotency-Key and is retried with it after a network error, a 5xx or a 429, as a client
//    should. Then: every 202 maps to exactly one message, the campaign holds exactly one message per
//    logical request, and every message ends sent/delivered/read or failed with a reason — none
//    stuck, none lost.
// 2. Fuzzed bodies and headers (5,000; short: 500) on the trigger and message routes → zero 5xx.
// (d) Statuses before their wamid (1,000; short: 100 triggers): before answering each send, the
//    fake posts the signed `sent` + `delivered` webhook for the new wamid to the server and waits
//    for its 200, so the status always arrives before the dispatcher stores the wamid. → every
//    message ends `delivered`, some statuses were held (`pending`), the status inbox ends empty.
// (b) Postgres restarted mid-load (3,000; short: 300 triggers, 20 at a time), with
//    `pg_ctlcluster --skip-systemctl-redirect <ver> main restart` after a third was accepted. Full
//    mode only (short mode with RELIABILITY_PG_RESTART=1: it took 50 s); skipped with a notice where
//    pg_ctlcluster is unavailable or not permitted, or with RELIABILITY_PG_RESTART=0 (it disturbs
//    everything else using that Postgres). → every request accepted in the end
//    (clients retry with their Idempotency-Key), 0 accepted (202) messages lost, all sent.
// (f) A bulk campaign launched through POST /api/v1/campaigns/{id}/launch to 100,000 (short: 2,000)
//    contacts, 30 % of sends failing (500 or 130429), the server SIGKILLed 5 times at random
//    moments and restarted → every contact ends with exactly one message in a final state; no
//    contact got two accepted sends (a send in flight at a kill is settled as outcome unknown);
//    the killed processes' claims are taken over without waiting for their 60 s lease. See
//    bench/reliability-bulk.ts.
// (g) A CSV import of 1,000,000 (short: 600,000) rows through the API, the server SIGKILLed once a
//    range of the merge is merged and restarted → the merge resumes and completes with the file's
//    report, each range merged once, each phone stored once. See bench/reliability-import.ts.
// Then the server stops and three bare dispatching processes (bench/reliability-dispatcher.ts,
// send timeout 2 s) run (a), (c) and (e) at once, on three senders of their own:
// (a) one sender at 20 messages/s, 1,200 (short: 200) queued messages → the peak of provider calls
//    in any 1-second window is ≤ rate + 5 % (the send rate is shared through Postgres), each sent once.
// (c) the fake answers 1.5 s after the client's send timeout, 100 (short: 20) messages; after a wait
//    long enough for retries (60 s; short: 10 s) → zero recipients with more than one request
//    (timed-out sends are counted as outcome unknown, not retried).
// (e) a Postgres trigger (created by the script, then dropped) raises on 30 % of the statements
//    that record `sent` for that sender's messages, 2,000 (short: 200) messages → zero duplicate
//    sends, and every message ends `sent` once its results write went through.
// RELIABILITY_ONLY=1,2,a,b,c,d,e,f,g runs only the named scenarios. Exits non-zero on any violation.
import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { startFakeGraph, graphError, type FakeGraphHandler, type FakeGraphReply } from "@/lib/channels/whatsapp/testing/fake-graph";
import { bulkUnderKills } from "./reliability-bulk";
import { importUnderKill } from "./reliability-import";
import { Report, startDispatchers } from "./reliability-support";
import {
  checkLateAnswers,
  checkResultWriteFailures,
  checkSharedRate,
  dropResultWriteFailures,
  postgresRestart,
  prepareLateAnswers,
  prepareResultWriteFailures,
  prepareSharedRate,
  statusesBeforeWamid,
  type ScenarioContext,
} from "./reliability-scenarios";
import { BASE_URL, CRON_SECRET, ensureBuild, exitBench, freshDatabase, phoneNumbers, sleep, startServer, writeResultsSection, type Server } from "./trigger-support";

const SHORT = process.argv.includes("--short") || process.env.RELIABILITY_SHORT === "1" || process.env.RELIABILITY_MODE === "short";
const TRIGGERS = Number(process.env.RELIABILITY_TRIGGERS ?? (SHORT ? 1000 : 20_000));
const FUZZ = Number(process.env.RELIABILITY_FUZZ ?? (SHORT ? 500 : 5000));
const CONCURRENCY = 50;
const DRAIN_TIMEOUT_MS = Number(process.env.RELIABILITY_DRAIN_TIMEOUT_MS ?? (SHORT ? 240_000 : 600_000));
const ENCRYPTION_KEY = "a".repeat(64);
const DISPATCHER_SEND_TIMEOUT_MS = 2000;
/** RELIABILITY_ONLY=1,2,a,b,c,d,e,f,g runs only those scenarios (all by default). */
const ONLY = process.env.RELIABILITY_ONLY?.split(",").map((name) => name.trim());
const runs = (name: string) => !ONLY || ONLY.includes(name);

const report = new Report();
const failures = report.failures;
const summary = report.summary;
const note = (line: string) => report.note(line);
const check = (ok: boolean, what: string) => report.check(ok, what);
const writeReport = () => report.write(process.env.RELIABILITY_REPORT);

/** 70 % success; 10 % each: HTTP 500, 130429 (throughput), no answer at all. */
function flakyGraph(): () => FakeGraphReply {
  let n = 0;
  return () => {
    n++;
    const roll = Math.random();
    if (roll < 0.1) return { status: 500, text: "Internal Server Error" };
    if (roll < 0.2) return graphError(130429, "Rate limit hit", 400);
    if (roll < 0.3) return { hang: true };
    return { status: 200, body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: `wamid.REL${n}` }] } };
  };
}

async function main() {
  const started = Date.now();
  ensureBuild();
  process.env.ENCRYPTION_KEY = ENCRYPTION_KEY;
  // RELIABILITY_DATABASE: another name, for a run beside another one on the same Postgres.
  const url = await freshDatabase(process.env.RELIABILITY_DATABASE ?? "sendstream_reliability_trigger");
  process.env.DATABASE_URL = url;
  const { getDb, closeDb } = await import("@/db");
  const { messages, senders } = await import("@/db/schema");
  const { encryptSecret } = await import("@/lib/crypto/secrets");
  const { MAX_SEND_ATTEMPTS, OUTCOME_UNKNOWN_CODE } = await import("@/lib/messaging/errors");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const db = await getDb();
  const fx = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  await db
    .update(senders)
    .set({ provider: "whatsapp", phoneNumberId: "100200300", accessTokenEncrypted: encryptSecret("reliability-token"), throughputPerSecond: 1000 })
    .where(eq(senders.workspaceId, fx.workspaceId));

  // One fake Cloud API; each scenario routes its sender's phone number id to its own handler.
  const routes = new Map<string, FakeGraphHandler>([["100200300", flakyGraph()]]);
  const graph = await startFakeGraph((request) => {
    const handler = routes.get(request.path.split("/").at(-2) ?? "");
    return handler ? handler(request) : { status: 404, body: { error: { message: "Unknown phone number id", code: 100 } } };
  });
  const serverEnv = {
    DATABASE_URL: url,
    ENCRYPTION_KEY,
    WHATSAPP_GRAPH_URL: graph.url,
    TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000",
  };
  let server: Server = await startServer(serverEnv);
  let restarting: Promise<void> | null = null;
  const ctx: ScenarioContext = { report, db, short: SHORT, route: (phoneNumberId, handler) => routes.set(phoneNumberId, handler) };
  let dispatchers: Awaited<ReturnType<typeof startDispatchers>> | null = null;

  try {
    if (runs("1")) {
      report.section("1. triggers through a flaky Graph API with the server SIGKILLed once");
      // ---- 1. triggers with a kill and restart in the middle ----
      console.log(`Triggering ${TRIGGERS} messages (${CONCURRENCY} at a time), killing the server once …`);
      const phones = phoneNumbers(TRIGGERS);
      const ids: (string | null)[] = new Array(TRIGGERS).fill(null);
      const statuses = new Map<number, number>();
      let retries = 0;
      let completed = 0;
      let nextIndex = 0;
      const killAt = Math.floor(TRIGGERS / 3);
      let killed = false;

      const sendOne = async (i: number) => {
        const body = JSON.stringify({ phone: phones[i], order: `REL-${i}`, first_name: "Rel" });
        for (let attempt = 0; ; attempt++) {
          if (restarting) await restarting;
          try {
            const response = await fetch(`${BASE_URL}/api/campaigns/${fx.campaignId}/trigger`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-api-key": fx.apiKey, "idempotency-key": `rel-${i}` },
              body,
              signal: AbortSignal.timeout(30_000),
            });
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            const payload = (await response.json()) as { id?: string };
            if (response.status === 202) {
              if (ids[i] !== null && ids[i] !== payload.id) failures.push(`request ${i}: 202 with a second id ${payload.id} (first ${ids[i]})`);
              ids[i] = payload.id ?? null;
              return;
            }
            if (response.status !== 429 && response.status < 500) {
              failures.push(`request ${i}: unexpected ${response.status} ${JSON.stringify(payload)}`);
              return;
            }
          } catch {
            // connection refused / reset while the server is down: retry with the same key
          }
          retries++;
          await sleep(Math.min(2000, 50 * 2 ** Math.min(attempt, 6)));
        }
      };

      const worker = async () => {
        while (nextIndex < TRIGGERS) {
          const i = nextIndex++;
          await sendOne(i);
          completed++;
          if (!killed && completed >= killAt) {
            killed = true;
            console.log(`  killing the server (SIGKILL) after ${completed} accepted requests, then restarting it`);
            restarting = (async () => {
              await server.kill();
              server = await startServer(serverEnv);
            })();
            await restarting;
            restarting = null;
          }
        }
      };
      const triggerStart = Date.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const triggerSeconds = (Date.now() - triggerStart) / 1000;
      note(`${TRIGGERS} triggers in ${triggerSeconds.toFixed(1)} s (${(TRIGGERS / triggerSeconds).toFixed(0)}/s) with one SIGKILL + restart; ${retries} client retries with the same Idempotency-Key; responses ${JSON.stringify(Object.fromEntries(statuses))}`);

      const accepted = ids.filter((id): id is string => id !== null);
      check(accepted.length === TRIGGERS, `every logical request got a 202 (${accepted.length}/${TRIGGERS})`);
      check(new Set(accepted).size === accepted.length, "no two requests share a message id");
      const rows = await db.select({ id: messages.id }).from(messages).where(eq(messages.campaignId, fx.campaignId));
      const stored = new Set(rows.map((r) => r.id));
      check(rows.length === TRIGGERS, `the campaign holds exactly one message per request (${rows.length} for ${TRIGGERS})`);
      check(accepted.every((id) => stored.has(id)), "every 202's message id exists");

      // ---- drain: the cron route (what Vercel runs) until nothing is queued or sending ----
      // A send that timed out after its request was written waits out the outcome grace (2 min) as
      // `sending` with error_code outcome_unknown, then fails. Short mode counts those as settled.
      console.log(`Draining (the killed process's claims are taken over at once${SHORT ? "" : "; outcome-unknown sends fail after their 2 min grace"}) …`);
      const drainStart = Date.now();
      let open = Infinity;
      let awaitingOutcome = 0;
      while (Date.now() - drainStart < DRAIN_TIMEOUT_MS) {
        const [row] = await db
          .select({
            n: sql<number>`count(*)::int`,
            unknown: sql<number>`count(*) filter (where ${messages.status} = 'sending' and ${messages.errorCode} = ${OUTCOME_UNKNOWN_CODE})::int`,
          })
          .from(messages)
          .where(sql`${messages.campaignId} = ${fx.campaignId} and ${messages.status} in ('queued', 'sending')`);
        awaitingOutcome = SHORT ? Number(row!.unknown) : 0;
        open = Number(row!.n) - awaitingOutcome;
        if (open === 0) break;
        console.log(`  ${open} still queued or sending after ${((Date.now() - drainStart) / 1000).toFixed(0)} s${row!.unknown ? ` (${row!.unknown} of them waiting out an unknown outcome)` : ""}`);
        await fetch(`${BASE_URL}/api/cron/dispatch`, { headers: { authorization: `Bearer ${CRON_SECRET}` }, signal: AbortSignal.timeout(60_000) }).catch(() => {});
        await sleep(2000);
      }
      const final = await db
        .select({ status: messages.status, n: sql<number>`count(*)::int`, withoutReason: sql<number>`count(*) filter (where ${messages.errorReason} is null)::int` })
        .from(messages)
        .where(eq(messages.campaignId, fx.campaignId))
        .groupBy(messages.status);
      note(`final statuses: ${final.map((r) => `${r.status} ${r.n}`).join(", ")}; the fake Graph API saw ${graph.requests.length} send requests (30 % answered 500, 130429 or never)`);
      graph.requests.length = 0;
      if (awaitingOutcome > 0) note(`${awaitingOutcome} sends timed out after their request was written: waiting out the outcome grace, then failed as outcome unknown (counted as settled in short mode)`);
      check(open === 0, `no message stuck in queued/sending (${open === Infinity ? "unknown" : open} left)`);
      const terminal = final.filter((r) => ["sent", "delivered", "read", "failed"].includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
      check(terminal + awaitingOutcome === TRIGGERS, `every message ended sent/delivered/read or failed${SHORT ? " (or awaits its unknown outcome's grace)" : ""} (${terminal + awaitingOutcome}/${TRIGGERS})`);
      const failedWithoutReason = final.find((r) => r.status === "failed")?.withoutReason ?? 0;
      check(Number(failedWithoutReason) === 0, "every failed message has a reason");
      // Only retryable faults are injected, so a message may fail early only when a request that
      // never answered may have reached Meta (outcome unknown: not sent again, to never send twice).
      const early = await db
        .select({ code: messages.errorCode, reason: messages.errorReason, n: sql<number>`count(*)::int` })
        .from(messages)
        .where(sql`${messages.campaignId} = ${fx.campaignId} and ${messages.status} = 'failed' and ${messages.attempts} < ${MAX_SEND_ATTEMPTS}`)
        .groupBy(messages.errorCode, messages.errorReason);
      const unknownOutcome = early.filter((row) => row.code === OUTCOME_UNKNOWN_CODE);
      const retriedTooFew = early.filter((row) => row.code !== OUTCOME_UNKNOWN_CODE);
      note(`failed as outcome unknown (a request that never answered may have reached Meta; not retried): ${unknownOutcome.reduce((sum, row) => sum + Number(row.n), 0)}`);
      for (const row of retriedTooFew) note(`failed before ${MAX_SEND_ATTEMPTS} attempts: ${row.n} × ${row.code}: ${row.reason}`);
      check(retriedTooFew.length === 0, `transient send errors were retried: no message failed before ${MAX_SEND_ATTEMPTS} attempts except as outcome unknown`);

    }
    if (runs("2")) {
      // ---- 2. fuzz ----
      report.section("2. fuzzed requests");
      console.log(`Fuzzing ${FUZZ} requests …`);
      const fuzzStatuses = new Map<number, number>();
      const fiveHundreds: string[] = [];
      let fuzzNext = 0;
      const fuzzWorker = async () => {
        while (fuzzNext < FUZZ) {
          const n = fuzzNext++;
          const request = fuzzRequest(n, fx.campaignId, fx.apiKey);
          try {
            const response = await fetch(`${BASE_URL}${request.path}`, {
              method: request.method,
              headers: request.headers,
              body: request.body as BodyInit | undefined,
              signal: AbortSignal.timeout(30_000),
            });
            await response.arrayBuffer();
            fuzzStatuses.set(response.status, (fuzzStatuses.get(response.status) ?? 0) + 1);
            if (response.status >= 500) fiveHundreds.push(`${response.status} ${request.method} ${request.path} ${request.describe}`);
          } catch (error) {
            fiveHundreds.push(`network error ${(error as Error).message} ${request.method} ${request.path} ${request.describe}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 20 }, fuzzWorker));
      note(`fuzz responses ${JSON.stringify(Object.fromEntries([...fuzzStatuses].sort((a, b) => a[0] - b[0])))}`);
      for (const line of fiveHundreds.slice(0, 10)) console.log(`  ${line}`);
      check(fiveHundreds.length === 0, `zero 5xx (or dropped connections) over ${FUZZ} fuzzed requests (${fiveHundreds.length})`);
    }

    // ---- (d), (b): through the running server ----
    if (runs("d")) await statusesBeforeWamid(ctx);
    if (runs("b")) await postgresRestart(ctx);
    if (runs("f")) {
      await bulkUnderKills(ctx, {
        async killAndRestart(whileDown) {
          await server.kill();
          const diedAt = Date.now();
          await whileDown?.();
          server = await startServer(serverEnv);
          return diedAt;
        },
      });
    }

    if (runs("g")) {
      await importUnderKill(ctx, {
        async killAndRestart() {
          await server.kill();
          const diedAt = Date.now();
          server = await startServer(serverEnv);
          return diedAt;
        },
      });
    }

    // ---- (a), (c), (e): three bare dispatching processes, at once ----
    await server.stop();
    if (runs("a") || runs("c") || runs("e")) {
      const shared = runs("a") ? await prepareSharedRate(ctx) : null;
      const late = runs("c") ? await prepareLateAnswers(ctx, DISPATCHER_SEND_TIMEOUT_MS) : null;
      const writes = runs("e") ? await prepareResultWriteFailures(ctx) : null;
      console.log("\nStarting 3 dispatching processes for (a), (c) and (e) …");
      dispatchers = await startDispatchers(3, { DATABASE_URL: url, ENCRYPTION_KEY, WHATSAPP_GRAPH_URL: graph.url, RELIABILITY_SEND_TIMEOUT_MS: String(DISPATCHER_SEND_TIMEOUT_MS) });
      await Promise.all([
        shared && checkSharedRate(ctx, shared, 3),
        late && checkLateAnswers(ctx, late),
        writes && checkResultWriteFailures(ctx, writes),
      ]);
    }
  } finally {
    await dispatchers?.stop().catch(() => {});
    await dropResultWriteFailures(db).catch(() => {});
    await server.stop().catch(() => {});
    await graph.close();
    await closeDb();
  }
  writeReport();
  if (!SHORT) {
    // A run of some scenarios only (RELIABILITY_ONLY) keeps its own section beside the full run's.
    const only = ONLY ? ONLY.join(",") : null;
    writeResultsSection(
      only ? `reliability-${only.replace(/\W/g, "")}` : "reliability-trigger",
      `## Reliability (\`${only ? `RELIABILITY_ONLY=${only} ` : ""}npm run test:reliability\`)\n\nRun ${new Date().toISOString()}, ${failures.length === 0 ? "PASS" : `FAIL (${failures.length})`}:\n\n${summary.join("\n")}`,
    );
  }
  console.log(`\n${failures.length === 0 ? "PASS" : `FAIL (${failures.length})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const failure of failures.slice(0, 20)) console.log(`  - ${failure}`);
  // Drops the database it created (RELIABILITY_DATABASE or sendstream_reliability_trigger), then exits.
  await exitBench(failures.length === 0 ? 0 : 1);
}

// ---- fuzzed requests ----

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  describe: string;
}

const pick = <T>(items: readonly T[]): T => items[crypto.randomInt(items.length)]!;

function randomJsonValue(depth: number): unknown {
  const kinds = depth > 3 ? ["string", "number", "bool", "null"] : ["string", "number", "bool", "null", "object", "array"];
  switch (pick(kinds)) {
    case "string":
      return pick(["", "+14155552671", "+447911123456", "+1555", "x".repeat(crypto.randomInt(1, 5000)), "ü\u0000\u202e😀", "2026-02-30", "a@b", "<script>", "'; drop table messages; --"]);
    case "number":
      return pick([0, -1, 1e308, -1e-308, 3.14, Number.MAX_SAFE_INTEGER, 12]);
    case "bool":
      return Math.random() < 0.5;
    case "null":
      return null;
    case "object": {
      const out: Record<string, unknown> = {};
      for (let i = crypto.randomInt(0, 8); i > 0; i--) {
        out[pick(["phone", "first_name", "order", "amount", "vip", "email", "due", "__proto__", "constructor", "x"])] = randomJsonValue(depth + 1);
      }
      return out;
    }
    default:
      return Array.from({ length: crypto.randomInt(0, 6) }, () => randomJsonValue(depth + 1));
  }
}

function fuzzBody(): { body: string | Uint8Array; describe: string } {
  switch (crypto.randomInt(10)) {
    case 0:
      return { body: crypto.randomBytes(crypto.randomInt(0, 2000)), describe: "random bytes" };
    case 1:
      return { body: "[".repeat(crypto.randomInt(1, 20000)), describe: "deep open brackets" };
    case 2:
      return { body: `${"[".repeat(5000)}${"]".repeat(5000)}`, describe: "deeply nested arrays" };
    case 3:
      return { body: JSON.stringify(Array.from({ length: crypto.randomInt(95, 110) }, () => ({ phone: "+14155552671", order: "F" }))), describe: "batch around the limit" };
    case 4:
      return { body: JSON.stringify({ phone: "+14155552671", pad: "y".repeat(crypto.randomInt(60_000, 70_000)) }), describe: "object around 64 KiB" };
    case 5:
      return { body: `{"phone": "+14155552671", "order": "${pick(["\\u0000", "\\ud800", "\\udc00x", "\\u0000\\ud83d"]).repeat(50)}", "first_name": "${pick(["\\u0000", "ok"])}"}`, describe: "escaped NULs and unpaired surrogates" };
    default: {
      const value = Math.random() < 0.5 ? randomJsonValue(0) : Array.from({ length: crypto.randomInt(0, 4) }, () => randomJsonValue(1));
      return { body: JSON.stringify(value) ?? "null", describe: "random JSON" };
    }
  }
}

function fuzzRequest(n: number, campaignId: string, apiKey: string): FuzzRequest {
  const method = pick(["POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH"]);
  const path = pick([
    `/api/campaigns/${campaignId}/trigger`,
    `/outbound/${campaignId}`,
    `/api/campaigns/${campaignId}/trigger?dryRun=true`,
    `/api/campaigns/cmp_${crypto.randomBytes(8).toString("hex")}/trigger`,
    `/outbound/${encodeURIComponent("'\"<>%00")}`,
    `/api/v1/messages/msg_${crypto.randomBytes(6).toString("hex")}`,
    `/api/v1/messages/${encodeURIComponent("../../x")}`,
  ]);
  const headers: Record<string, string> = {};
  const keyChoice = crypto.randomInt(10);
  if (keyChoice <= 2) headers["x-api-key"] = apiKey;
  else if (keyChoice >= 6 && keyChoice <= 8) headers.authorization = `Bearer ${apiKey}`;
  else if (keyChoice === 3) headers.authorization = pick([`Bearer ${apiKey}`, "Bearer", "Basic abc", `bearer  ${apiKey}`, `Bearer ss_${"A".repeat(38)}`]);
  else if (keyChoice === 4) headers["x-api-key"] = pick(["", "ss_", "x".repeat(8000), `${apiKey} `, "ss_ÿÿÿ"]);
  if (keyChoice === 1) headers.authorization = `Bearer ss_${crypto.randomBytes(19).toString("hex")}`;
  headers["content-type"] = pick([
    "application/json",
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "application/vnd.api+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "",
    "application/json;;;",
  ]);
  if (Math.random() < 0.3) headers["idempotency-key"] = pick(["k", "x".repeat(300), `fuzz-${n % 20}`, " ", "ÿ"]);
  if (Math.random() < 0.1) headers["content-encoding"] = "gzip";
  const { body, describe } = method === "GET" ? { body: undefined, describe: "no body" } : fuzzBody();
  return { method, path, headers, body, describe: `${describe}; ${JSON.stringify(Object.keys(headers))}` };
}

main().catch((error) => {
  console.error(error);
  failures.push(`the script crashed: ${(error as Error).message}`);
  writeReport();
  return exitBench(1);
});
