// `npx tsx bench/webhook-statuses.ts`: signed delivery webhooks carrying 10,000 statuses each (the
// per-request cap), applied on Postgres by `handleWebhookDelivery` (JSON parse, signature check,
// one set-based statement per request). Target: ≥ 5,000 statuses/s applied.
//   1. `delivered` for BENCH_STATUS_MESSAGES stored messages (default 100,000), 10,000 per request;
//   2. `read` and a late duplicate `delivered` for each of them, shuffled (5,000 messages per request);
//   3. statuses for 10,000 wamids not stored yet (held in the inbox), then the wamids written and
//      the held statuses applied by `applyInboxedStatuses`.
// Each round checks the final statuses. Results replace the "webhook-statuses" section of bench/RESULTS.md.
import os from "node:os";
import { eq, sql } from "drizzle-orm";
import { exitBench, freshDatabase, writeResultsSection } from "./trigger-support";

const MESSAGES = Number(process.env.BENCH_STATUS_MESSAGES ?? 100_000);
const PER_REQUEST = 10_000;
const PHONE_NUMBER_ID = "100200300400";
const APP_SECRET = "bench-webhook-app-secret";

async function main() {
  const loadBefore = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
  process.env.ENCRYPTION_KEY ??= "b".repeat(64);
  process.env.DATABASE_URL = await freshDatabase("sendstream_bench_webhook_statuses");
  const { getDb, closeDb } = await import("@/db");
  const { messages, messageStatusInbox, senders } = await import("@/db/schema");
  const { encryptSecret } = await import("@/lib/crypto/secrets");
  const { handleWebhookDelivery } = await import("@/lib/inbound/webhook");
  const { getChannel } = await import("@/lib/channels");
  const signPayload = (raw: Uint8Array, secret: string) => getChannel("whatsapp").webhook!.sign(raw, secret);
  const { applyInboxedStatuses } = await import("@/lib/outbox/status-inbox");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const db = await getDb();
  const fx = await createTriggerFixture();
  await db
    .update(senders)
    .set({ provider: "whatsapp", phoneNumberId: PHONE_NUMBER_ID, wabaId: "900800700", appSecretEncrypted: encryptSecret(APP_SECRET), accessTokenEncrypted: encryptSecret("token") })
    .where(eq(senders.workspaceId, fx.workspaceId));
  await db.execute(sql`insert into messages (id, workspace_id, campaign_id, phone_number, template_name, template_language, rendered_text, status, wamid, sent_at)
    select 'msg_bench_' || g, ${fx.workspaceId}, ${fx.campaignId}, '+4479111' || lpad(g::text, 5, '0'), 'order_shipped', 'en_US', 'Hi', 'sent', 'wamid.BENCH' || g, now() - interval '1 hour'
    from generate_series(1, ${MESSAGES}) g`);
  await db.execute(sql`analyze messages`);

  const nowSeconds = Math.floor(Date.now() / 1000);
  const body = (statuses: { id: string; status: string; timestamp: number }[]) => ({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "900800700",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: PHONE_NUMBER_ID },
              statuses: statuses.map((s) => ({ ...s, timestamp: String(s.timestamp), recipient_id: "447911100000" })),
            },
          },
        ],
      },
    ],
  });

  interface Round {
    name: string;
    statuses: number;
    seconds: number;
    requests: number;
    applied: number;
    ignored: number;
    pending: number;
  }
  const rounds: Round[] = [];
  const run = async (name: string, requests: { id: string; status: string; timestamp: number }[][]) => {
    const raws = requests.map((statuses) => JSON.stringify(body(statuses)));
    const round: Round = { name, statuses: 0, seconds: 0, requests: raws.length, applied: 0, ignored: 0, pending: 0 };
    const started = performance.now();
    for (const raw of raws) {
      const bytes = new TextEncoder().encode(raw);
      const outcome = await handleWebhookDelivery(db, "whatsapp", { raw: bytes, body: JSON.parse(raw), headers: new Headers({ "x-hub-signature-256": signPayload(bytes, APP_SECRET) }) });
      if (!outcome.ok) throw new Error(`webhook refused: ${outcome.reason}`);
      round.applied += outcome.applied;
      round.ignored += outcome.ignored;
      round.pending += outcome.pending;
    }
    round.seconds = (performance.now() - started) / 1000;
    round.statuses = requests.reduce((sum, r) => sum + r.length, 0);
    rounds.push(round);
    console.log(`${name}: ${round.statuses} statuses in ${round.seconds.toFixed(2)} s = ${(round.statuses / round.seconds).toFixed(0)}/s (applied ${round.applied}, ignored ${round.ignored}, pending ${round.pending})`);
  };
  const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
  const ids = Array.from({ length: MESSAGES }, (_, i) => `wamid.BENCH${i + 1}`);

  await run("delivered, one per message", chunks(ids.map((id) => ({ id, status: "delivered", timestamp: nowSeconds - 60 })), PER_REQUEST));
  const mixed = ids.flatMap((id) => [
    { id, status: "read", timestamp: nowSeconds - 30 },
    { id, status: "delivered", timestamp: nowSeconds - 59 },
  ]);
  for (let i = mixed.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [mixed[i], mixed[j]] = [mixed[j]!, mixed[i]!];
  }
  await run("read + late duplicate delivered, shuffled", chunks(mixed, PER_REQUEST));

  const early = Array.from({ length: PER_REQUEST }, (_, i) => `wamid.EARLY${i}`);
  await run("statuses before their wamid is stored (held)", [early.map((id) => ({ id, status: "delivered", timestamp: nowSeconds - 10 }))]);
  await db.execute(sql`insert into messages (id, workspace_id, campaign_id, phone_number, template_name, template_language, rendered_text, status, wamid, sent_at)
    select 'msg_early_' || g, ${fx.workspaceId}, ${fx.campaignId}, '+4479112' || lpad(g::text, 5, '0'), 'order_shipped', 'en_US', 'Hi', 'sent', 'wamid.EARLY' || g, now()
    from generate_series(0, ${PER_REQUEST - 1}) g`);
  const inboxStarted = performance.now();
  const fromInbox = await applyInboxedStatuses(db, { providerMessageIds: early });
  const inboxSeconds = (performance.now() - inboxStarted) / 1000;
  console.log(`held statuses applied once the wamids were written: ${fromInbox} in ${inboxSeconds.toFixed(2)} s`);

  const final = await db.select({ status: messages.status, n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.workspaceId, fx.workspaceId)).groupBy(messages.status);
  const [left] = await db.select({ n: sql<number>`count(*)::int` }).from(messageStatusInbox);
  const byStatus = Object.fromEntries(final.map((row) => [row.status, Number(row.n)]));
  const correct = byStatus.read === MESSAGES && byStatus.delivered === PER_REQUEST && Object.keys(byStatus).length === 2 && Number(left!.n) === 0 && fromInbox === PER_REQUEST;
  const applyRounds = rounds.slice(0, 2);
  const rate = applyRounds.reduce((sum, r) => sum + r.statuses, 0) / applyRounds.reduce((sum, r) => sum + r.seconds, 0);
  console.log(`final: ${JSON.stringify(byStatus)}, inbox left ${left!.n}; ${correct ? "correct" : "WRONG"}; applied rate ${rate.toFixed(0)} statuses/s (target ≥ 5,000)`);

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  writeResultsSection(
    "webhook-statuses",
    `## Delivery webhook statuses (\`npx tsx bench/webhook-statuses.ts\`)

Run ${new Date().toISOString()} on ${os.hostname()}: ${cpu}, ${os.cpus().length} cores, Node ${process.version}, load average before the run ${loadBefore}, Postgres on the same machine (shared with other work, so figures are a floor).
\`handleWebhookDelivery\` per signed request of ${PER_REQUEST.toLocaleString("en")} statuses: JSON parse, signature check, one statement applying and holding the statuses; ${MESSAGES.toLocaleString("en")} stored messages.

| round | requests | statuses | seconds | statuses/s | applied | ignored | held |
|---|---|---|---|---|---|---|---|
${rounds.map((r) => `| ${r.name} | ${r.requests} | ${r.statuses} | ${r.seconds.toFixed(2)} | ${(r.statuses / r.seconds).toFixed(0)} | ${r.applied} | ${r.ignored} | ${r.pending} |`).join("\n")}

- Applied rate over rounds 1–2: **${rate.toFixed(0)} statuses/s** (target ≥ 5,000): ${rate >= 5000 ? "pass" : "MISSED"}.
- ${PER_REQUEST.toLocaleString("en")} held statuses applied by \`applyInboxedStatuses\` once their wamids were written: ${inboxSeconds.toFixed(2)} s.
- Final statuses ${JSON.stringify(byStatus)}, inbox empty: ${Number(left!.n) === 0 ? "yes" : "no"} — ${correct ? "correct" : "WRONG"}.`,
  );
  await closeDb();
  await exitBench(correct && rate >= 5000 ? 0 : 1);
}

main().then(
  () => exitBench(Number(process.exitCode ?? 0)),
  (error: unknown) => {
    console.error(error);
    return exitBench(1);
  },
);
