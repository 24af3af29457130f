// `npm run bench:dispatch`: the dispatcher sending into a local fake Graph API (a real HTTP server
// with a configurable answer latency), on Postgres. Two scenarios:
//   1. several senders at once: total messages per second into the Graph API (target ≥ 1,000/s);
//   2. one sender at its default 80 msg/s: the measured rate must stay within ±5 %.
// Every run checks that each message was sent exactly once and ended `sent` with its wamid.
// Results replace the "dispatch" section of bench/RESULTS.md.
//
// Env: BENCH_DATABASE_URL / DATABASE_URL (server to create `sendstream_bench_dispatch` on),
// BENCH_SENDERS (default 8), BENCH_SENDER_RATE (msg/s per sender in scenario 1, default 250),
// BENCH_MESSAGES (scenario 1 total, default 20000), BENCH_SINGLE_SECONDS (scenario 2, default 15),
// BENCH_GRAPH_LATENCY_MS (fake Graph answer delay, default 25).
import { spawn } from "node:child_process";
import os from "node:os";
import { ownProcess } from "./processes";
import { exitBench, freshDatabase, writeResultsSection } from "./trigger-support";

const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);
const SENDER_RATE = Number(process.env.BENCH_SENDER_RATE ?? 250);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const SINGLE_SECONDS = Number(process.env.BENCH_SINGLE_SECONDS ?? 15);
const LATENCY_MS = Number(process.env.BENCH_GRAPH_LATENCY_MS ?? 25);
const SINGLE_RATE = 80;
// The senders' credentials are stored encrypted.
process.env.ENCRYPTION_KEY ??= "d15b".repeat(16);
/** A bulk campaign at the sender's default throughput: finishes within 1.05 × the ideal time, never above the rate. */
const BULK_MESSAGES = Number(process.env.BENCH_BULK_MESSAGES ?? 4_000);

interface Timeline {
  first: number;
  last: number;
  count: number;
  /** Most sends seen in any 1-second window. */
  peakPerSecond: number;
}

function timeline(times: number[]): Timeline {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 1000) from++;
    peak = Math.max(peak, to - from + 1);
  }
  return { first: sorted[0] ?? 0, last: sorted.at(-1) ?? 0, count: sorted.length, peakPerSecond: peak };
}

async function main() {
  const url = await freshDatabase("sendstream_bench_dispatch");
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_MAX ??= "20";
  (process.env as Record<string, string>).NODE_ENV ??= "test";
  const { getDb, closeDb } = await import("@/db");
  const { campaigns, messages } = await import("@/db/schema");
  const { newId } = await import("@/lib/crypto/random");
  const { inArray, sql } = await import("drizzle-orm");
  const { createTestAccount } = await import("@/lib/testing/factories");
  const { connectTestWhatsAppSender, createTestMessages, setSenderThroughput } = await import("@/lib/testing/messaging-factories");
  const { runDispatch } = await import("@/lib/messaging/dispatcher");
  const { dispatchDependencies } = await import("@/lib/engine/jobs");
  const { defaultChannels } = await import("@/lib/channels");

  const db = await getDb();
  // The fake Graph API runs in its own process, as the real one would, so its CPU is not ours.
  const fake = ownProcess(
    spawn(process.execPath, ["--import", "tsx", "bench/dispatch-fake-graph.ts"], {
      env: { ...process.env, BENCH_GRAPH_LATENCY_MS: String(LATENCY_MS) },
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  const graphUrl = await new Promise<string>((resolve, reject) => {
    fake.stdout!.once("data", (data) => resolve(String(data).trim()));
    fake.once("exit", (code) => reject(new Error(`The fake Graph API exited (${code}).`)));
  });
  process.env.WHATSAPP_GRAPH_URL = graphUrl;
  const graphStats = async (path: "/__stats" | "/__reset") => (await fetch(`${graphUrl}${path}`)).json() as Promise<Record<string, number[]>>;

  async function scenario(name: string, senderCount: number, perSender: number, ratePerSecond: number, options: { bulk?: boolean } = {}) {
    const phoneIds: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < senderCount; i++) {
      const account = await createTestAccount({ name: `${name} ${i}` });
      const sender = await connectTestWhatsAppSender(account.workspaceId);
      await setSenderThroughput(account.workspaceId, ratePerSecond);
      phoneIds.push(sender.phoneNumberId);
      const created = await createTestMessages(account.workspaceId, perSender);
      ids.push(...created);
      if (options.bulk) {
        // A launched bulk campaign at the sender's throughput (send rate null).
        const campaignId = newId("cmp");
        await db.insert(campaigns).values({ id: campaignId, workspaceId: account.workspaceId, name, kind: "bulk", status: "sending", launchedAt: new Date() });
        for (let at = 0; at < created.length; at += 10_000) {
          await db.update(messages).set({ source: "bulk", campaignId }).where(inArray(messages.id, created.slice(at, at + 10_000)));
        }
      }
    }
    await graphStats("/__reset");
    const started = Date.now();
    // The default limiter: each sender's rate held in Postgres, as in production.
    const summary = await runDispatch({ ...dispatchDependencies(), db, channels: defaultChannels() }, { deadlineMs: 10 * 60_000, maxInFlight: 256 });
    const elapsed = (Date.now() - started) / 1000;
    const arrivals = await graphStats("/__stats");
    const sendTimes = new Map(Object.entries(arrivals));
    const all = timeline(phoneIds.flatMap((id) => sendTimes.get(id) ?? []));
    const perSenderTimelines = phoneIds.map((id) => timeline(sendTimes.get(id) ?? []));
    // Exactly once: as many Graph requests as messages, and every row sent with a distinct wamid.
    const rows = await db
      .select({ status: messages.status, n: sql<number>`count(*)::int`, providerMessageIds: sql<number>`count(distinct ${messages.providerMessageId})::int` })
      .from(messages)
      .where(inArray(messages.id, ids))
      .groupBy(messages.status);
    const sentRows = rows.find((r) => r.status === "sent");
    const exactlyOnce = all.count === ids.length && sentRows?.n === ids.length && sentRows.providerMessageIds === ids.length;
    const spanSeconds = (all.last - all.first) / 1000;
    return {
      name,
      senders: senderCount,
      messages: ids.length,
      ratePerSender: ratePerSecond,
      elapsed,
      spanSeconds,
      perSecond: all.count / Math.max(spanSeconds, 0.001),
      steadyPerSenderRates: perSenderTimelines.map((t) => (t.count - 1) / Math.max((t.last - t.first) / 1000, 0.001)),
      peakPerSenderSecond: Math.max(...perSenderTimelines.map((t) => t.peakPerSecond)),
      summary,
      exactlyOnce,
      statuses: rows.map((r) => `${r.status}: ${r.n}`).join(", "),
    };
  }

  console.log(`Scenario 1: ${SENDERS} senders × ${Math.round(MESSAGES / SENDERS)} messages at ${SENDER_RATE}/s each, Graph latency ${LATENCY_MS} ms`);
  const many = await scenario("many", SENDERS, Math.round(MESSAGES / SENDERS), SENDER_RATE);
  console.log(many);
  console.log(`Scenario 2: one sender at ${SINGLE_RATE}/s for ${SINGLE_SECONDS} s`);
  const single = await scenario("single", 1, SINGLE_RATE * SINGLE_SECONDS, SINGLE_RATE);
  console.log(single);
  console.log(`Scenario 3: a bulk campaign of ${BULK_MESSAGES} on one sender at ${SINGLE_RATE}/s`);
  const bulk = await scenario("bulk", 1, BULK_MESSAGES, SINGLE_RATE, { bulk: true });
  console.log(bulk);
  const bulkIdeal = BULK_MESSAGES / SINGLE_RATE;
  const bulkOk = bulk.spanSeconds <= bulkIdeal * 1.05 && bulk.peakPerSenderSecond <= SINGLE_RATE && bulk.exactlyOnce;

  const singleRate = single.steadyPerSenderRates[0]!;
  const deviation = ((singleRate - SINGLE_RATE) / SINGLE_RATE) * 100;
  const manyOk = many.perSecond >= 1000 && many.exactlyOnce;
  const singleOk = Math.abs(deviation) <= 5 && single.peakPerSenderSecond <= SINGLE_RATE * 1.05 && single.exactlyOnce;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const markdown = `
## Dispatcher (\`npm run bench:dispatch\`)

Run ${new Date().toISOString()} on ${os.hostname()}: ${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM,
Node ${process.version}, Postgres (postgres.js pool ${process.env.DATABASE_POOL_MAX}). The dispatcher (one process, one pass, sender rates held in Postgres)
sends into a local fake Graph API (its own process) answering after ${LATENCY_MS} ms; the machine is shared with other work, so figures are a floor.
Rates and peaks are measured from the fake API's arrival times, so they include connection and event-loop jitter on the way.

| scenario | senders × rate | messages | sent into Graph API | rate measured | peak in any 1 s (per sender) | exactly once | result |
|---|---|---|---|---|---|---|---|
| several senders | ${many.senders} × ${many.ratePerSender}/s | ${many.messages} | ${many.spanSeconds.toFixed(2)} s | **${Math.round(many.perSecond)} msg/s** total | ${many.peakPerSenderSecond} | ${many.exactlyOnce ? "yes" : "NO"} | ${manyOk ? "pass (≥ 1,000 msg/s)" : "FAIL (target ≥ 1,000 msg/s)"} |
| one sender at default throughput | 1 × ${SINGLE_RATE}/s | ${single.messages} | ${single.spanSeconds.toFixed(2)} s | **${singleRate.toFixed(2)} msg/s** (${deviation >= 0 ? "+" : ""}${deviation.toFixed(2)} %) | ${single.peakPerSenderSecond} | ${single.exactlyOnce ? "yes" : "NO"} | ${singleOk ? "pass (80 ± 5 %)" : "FAIL (target 80 ± 5 %)"} |
| bulk campaign | 1 × ${SINGLE_RATE}/s | ${bulk.messages} | ${bulk.spanSeconds.toFixed(2)} s (ideal ${bulkIdeal.toFixed(2)} s, ${(bulk.spanSeconds / bulkIdeal).toFixed(3)} ×) | **${bulk.perSecond.toFixed(2)} msg/s** | ${bulk.peakPerSenderSecond} | ${bulk.exactlyOnce ? "yes" : "NO"} | ${bulkOk ? "pass (≤ 1.05 × ideal, never above the rate)" : "FAIL (target ≤ 1.05 × ideal, peak ≤ rate)"} |

Final statuses: several senders — ${many.statuses}; one sender — ${single.statuses}; bulk — ${bulk.statuses}.
Per-sender rates in the first scenario: ${many.steadyPerSenderRates.map((r) => r.toFixed(1)).join(", ")} msg/s (cap ${SENDER_RATE}).
`;
  writeResultsSection("dispatch", markdown);
  console.log(markdown);
  fake.kill("SIGTERM");
  await closeDb();
  await exitBench(manyOk && singleOk && bulkOk ? 0 : 1);
}

main().then(
  () => exitBench(Number(process.exitCode ?? 0)),
  (error: unknown) => {
    console.error(error);
    return exitBench(1);
  },
);
