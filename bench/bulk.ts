// `npm run bench:bulk`: bulk campaigns on Postgres, in a fresh database of their own.
//   (a) the launch snapshot of a 1,000,000-contact audience (a list; 1 % opted out, left out):
//       the launch (audience frozen into chunks, the first chunk's messages written), then the writing
//       of the other chunks' messages, and launching again (an answered retry, and a forced re-run of the
//       snapshot over its own rows): time and rows changed; then the progress query on the result;
//   (b) BULK_RECIPIENTS (100,000) recipients through the sandbox sender, the campaign at 80 msg/s, while 20
//       trigger messages a second go to the same sender (its throughput 110/s): the bulk send's time against the ideal
//       (recipients / rate), its most sends in any 1-second window, and each trigger's time to sent.
// Results replace the "bulk" section of bench/RESULTS.md.
//
// Env: BENCH_DATABASE_URL / DATABASE_URL (server to create `sendstream_bench_bulk` on),
// BULK_SNAPSHOT_CONTACTS (1000000), BULK_RECIPIENTS (100000; 0 skips b), BULK_RATE (80),
// BULK_TRIGGERS_PER_SECOND (20), BULK_SENDER_THROUGHPUT (110), BULK_SKIP_SNAPSHOT=1 skips (a).
import os from "node:os";
import { performance } from "node:perf_hooks";
import { exitBench, freshDatabase, writeResultsSection } from "./trigger-support";

const SNAPSHOT_CONTACTS = Number(process.env.BULK_SNAPSHOT_CONTACTS ?? 1_000_000);
const RECIPIENTS = Number(process.env.BULK_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BULK_RATE ?? 80);
const TRIGGERS_PER_SECOND = Number(process.env.BULK_TRIGGERS_PER_SECOND ?? 20);
// Room for the campaign and the triggers plus 10 %: every rate lane keeps 4 % under its rate
// (PACING_SHARE in lib/messaging/throughput.ts), so a sender at exactly 100/s carries 96/s.
const SENDER_THROUGHPUT = Number(process.env.BULK_SENDER_THROUGHPUT ?? Math.ceil((RATE + TRIGGERS_PER_SECOND) * 1.1));
const TARGETS = { snapshotS: 10, finishFactor: 1.05, triggerS: 2, progressMs: 250 };

const COMPONENTS = [
  { type: "HEADER", format: "TEXT", text: "Hello {{1}}" },
  { type: "BODY", text: "Hi {{1}}, use code {{2}} in {{3}} this week." },
  { type: "FOOTER", text: "Reply STOP to opt out" },
  { type: "BUTTONS", buttons: [{ type: "URL", text: "Shop", url: "https://shop.example/c/{{1}}" }] },
];
const MESSAGE_CONFIG = {
  variables: [
    { key: "header.1", attribute: "name", fallback: "friend" },
    { key: "body.1", attribute: "name", fallback: "there" },
    { key: "body.2", attribute: "code", fallback: "WELCOME" },
    { key: "body.3", attribute: "city", fallback: "your store" },
    { key: "button.0.1", attribute: "code", fallback: "WELCOME" },
  ],
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main() {
  const url = await freshDatabase("sendstream_bench_bulk");
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_MAX ??= "10";
  (process.env as Record<string, string>).NODE_ENV ??= "test";
  const { getDb, closeDb } = await import("@/db");
  const { queryRows } = await import("@/db/rows");
  const { sql } = await import("drizzle-orm");
  const { templates, senders } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { createTestAccount } = await import("@/lib/testing/factories");
  const { getSenderRow } = await import("@/lib/senders/service");
  const { SANDBOX_EXTERNAL_PREFIX } = await import("@/lib/templates/service");
  await import("@/lib/engine/campaign-kinds");
  const { createCampaign } = await import("@/lib/campaigns/service");
  const { launchBulkCampaign } = await import("@/lib/bulk/launch");
  const { writeSnapshotChunksDue } = await import("@/lib/bulk/snapshot");
  const { getBulkProgress } = await import("@/lib/bulk/progress");
  const { newId } = await import("@/lib/crypto/random");
  const db = await getDb();

  async function workspaceWithAudience(contacts: number, label: string) {
    const account = await createTestAccount({ name: label });
    const workspaceId = account.workspaceId;
    await getSenderRow(db, workspaceId);
    const templateId = newId("tpl");
    await db.insert(templates).values({
      id: templateId,
      workspaceId,
      externalId: `${SANDBOX_EXTERNAL_PREFIX}bench`,
      name: "bench_promo",
      language: "en_US",
      category: "MARKETING",
      status: "APPROVED",
      parameterFormat: "POSITIONAL",
      components: COMPONENTS,
    });
    const listId = newId("lst");
    const prefix = label.replace(/\W/g, "").slice(0, 6);
    await queryRows(db, sql`insert into contact_lists (id, workspace_id, name) values (${listId}, ${workspaceId}, 'Everyone')`);
    await queryRows(
      db,
      sql`insert into contacts (id, workspace_id, phone_number, name, attributes, opted_out_at, opt_out_method, consent_status)
        select 'ctc_' || ${prefix} || i, ${workspaceId}, '+1415' || lpad(i::text, 7, '0'), 'Customer ' || i,
          jsonb_build_object('code', 'C' || i, 'city', (array['Lisbon', 'Porto', 'Austin', 'Leeds'])[1 + i % 4]),
          case when i % 100 = 0 then now() end, case when i % 100 = 0 then 'manual' end,
          case when i % 100 = 0 then 'unsubscribed' else 'subscribed' end
        from generate_series(1, ${contacts}) i`,
    );
    await queryRows(db, sql`insert into contact_list_members (list_id, contact_id) select ${listId}, id from contacts where workspace_id = ${workspaceId}`);
    await queryRows(db, sql`analyze contacts`);
    await queryRows(db, sql`analyze contact_list_members`);
    return { workspaceId, templateId, listId };
  }

  const lines: string[] = [];
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const header = `Run ${new Date().toISOString()} on ${os.hostname()}: ${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, Postgres ${
    (await queryRows<{ v: string }>(db, sql`select current_setting('server_version') as v`))[0]?.v
  }; load average ${os.loadavg().map((n) => n.toFixed(1)).join(" / ")} at the start (the machine is shared with other work).`;

  if (process.env.BULK_SKIP_SNAPSHOT !== "1") {
    console.log(`(a) ${SNAPSHOT_CONTACTS.toLocaleString("en-US")} contacts …`);
    const { workspaceId, templateId, listId } = await workspaceWithAudience(SNAPSHOT_CONTACTS, "Snapshot");
    const campaign = await createCampaign(db, workspaceId, { kind: "bulk", name: "Snapshot", audience: { listIds: [listId], segmentIds: [] }, templateId, messageConfig: MESSAGE_CONFIG });
    // The dispatcher is not running: the snapshot's rows stay queued.
    const count = async () => Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from messages where campaign_id = ${campaign.id}`))[0]?.n ?? 0);
    let started = performance.now();
    await launchBulkCampaign(db, workspaceId, campaign.id);
    const snapshotS = (performance.now() - started) / 1000;
    const firstChunkRows = await count();
    const [frozen] = await queryRows<{ contacts: number; chunks: number }>(
      db,
      sql`select coalesce(sum(cardinality(contact_ids)), 0)::int as contacts, count(*)::int as chunks from bulk_snapshot_chunks where campaign_id = ${campaign.id}`,
    );
    // What the dispatch passes do right after a launch (nothing else running here).
    started = performance.now();
    await writeSnapshotChunksDue(db, { deadline: Date.now() + 600_000 });
    const writeS = (performance.now() - started) / 1000;
    const rows = await count();
    started = performance.now();
    await launchBulkCampaign(db, workspaceId, campaign.id);
    const retryMs = performance.now() - started;
    const afterRetry = await count();
    // A resumed launch: the campaign back to draft with its rows, the snapshot statement run again.
    await queryRows(db, sql`update campaigns set status = 'draft', launched_at = null where id = ${campaign.id}`);
    started = performance.now();
    await launchBulkCampaign(db, workspaceId, campaign.id);
    const rerunS = (performance.now() - started) / 1000;
    await writeSnapshotChunksDue(db, { deadline: Date.now() + 600_000 });
    const afterRerun = await count();
    console.log({ snapshotS, firstChunkRows, frozen, writeS, rows, retryMs, afterRetry, rerunS, afterRerun });

    // Progress on the million: a realistic mix of statuses, then the polled query.
    await queryRows(
      db,
      sql`update messages set status = (array['sent', 'delivered', 'read', 'failed'])[1 + (abs(hashtext(id)) % 4)],
          sent_at = now() - (abs(hashtext(id)) % 600) * interval '1 second', error_code = case when abs(hashtext(id)) % 4 = 3 then '131026' end
        where campaign_id = ${campaign.id} and abs(hashtext(id)) % 10 < 6`,
    );
    await queryRows(db, sql`vacuum analyze messages`);
    const progressTimes: number[] = [];
    let progress: Awaited<ReturnType<typeof getBulkProgress>> | null = null;
    for (let i = 0; i < 7; i++) {
      started = performance.now();
      progress = await getBulkProgress(db, workspaceId, campaign.id);
      progressTimes.push(performance.now() - started);
    }
    const progressMs = median(progressTimes);
    console.log({ progressMs, progress });
    const expected = SNAPSHOT_CONTACTS - Math.floor(SNAPSHOT_CONTACTS / 100);
    lines.push(
      `### (a) Launch snapshot of ${SNAPSHOT_CONTACTS.toLocaleString("en-US")} contacts`,
      "",
      "| step | time | rows | target | result |",
      "|---|---|---|---|---|",
      `| launch: checks, audience frozen into snapshot chunks, first chunk's messages written, status → sending (one transaction) | **${snapshotS.toFixed(2)} s** | ${(Number(frozen?.contacts ?? 0) + firstChunkRows).toLocaleString("en-US")} contacts (${firstChunkRows.toLocaleString("en-US")} written, ${Number(frozen?.contacts ?? 0).toLocaleString("en-US")} in ${frozen?.chunks} pending chunks; expected ${expected.toLocaleString("en-US")}: 1 % opted out) | ≤ ${TARGETS.snapshotS} s | ${snapshotS <= TARGETS.snapshotS && Number(frozen?.contacts ?? 0) + firstChunkRows === expected ? "pass" : "FAIL"} |`,
      `| the pending chunks' queued messages written (what the dispatch passes do right after a launch) | ${writeS.toFixed(2)} s | ${rows.toLocaleString("en-US")} messages in all, one per contact | all, once | ${rows === expected ? "pass" : "FAIL"} |`,
      `| launch again (answered from the row lock, nothing run) | ${retryMs.toFixed(0)} ms | ${afterRetry - rows} changed | 0 changed | ${afterRetry === rows ? "pass" : "FAIL"} |`,
      `| launch re-run over its own rows (campaign forced back to draft; contacts already snapshotted left out, ON CONFLICT DO NOTHING) | ${rerunS.toFixed(2)} s | ${afterRerun - rows} changed | 0 changed | ${afterRerun === rows ? "pass" : "FAIL"} |`,
      `| \`GET …/progress\` on the million (60 % sent/delivered/read/failed), median of 7 | **${progressMs.toFixed(0)} ms** | funnel ${JSON.stringify(progress?.funnel)} | poll every 2–5 s (≤ ${TARGETS.progressMs} ms) | ${progressMs <= TARGETS.progressMs ? "pass" : "FAIL"} |`,
      "",
    );
    await queryRows(db, sql`delete from messages where campaign_id = ${campaign.id}`);
  }

  if (RECIPIENTS > 0) {
    console.log(`(b) ${RECIPIENTS.toLocaleString("en-US")} recipients at ${RATE}/s with ${TRIGGERS_PER_SECOND} triggers/s …`);
    const { runDispatch } = await import("@/lib/messaging/dispatcher");
    const { dispatchDependencies } = await import("@/lib/engine/jobs");
    const { defaultChannels } = await import("@/lib/channels");
    const { workspaceId, templateId, listId } = await workspaceWithAudience(Math.ceil(RECIPIENTS / 0.99), "Pacing");
    // The sender has room for both: the campaign's rate plus the triggers'. Triggers go first, so
    // the bulk send keeps its rate only if it never gives the triggers' share away.
    await db.update(senders).set({ throughputPerSecond: SENDER_THROUGHPUT }).where(eq(senders.workspaceId, workspaceId));
    const sender = await getSenderRow(db, workspaceId);
    const campaign = await createCampaign(db, workspaceId, {
      kind: "bulk",
      name: "Pacing",
      audience: { listIds: [listId], segmentIds: [] },
      templateId,
      messageConfig: MESSAGE_CONFIG,
      sendRatePerSecond: RATE,
    });
    const triggerCampaign = await createCampaign(db, workspaceId, { name: "Triggers" });
    await launchBulkCampaign(db, workspaceId, campaign.id);
    // The rest of the snapshot is written while the campaign sends, as the dispatch loop does.
    const writing = writeSnapshotChunksDue(db, { deadline: Date.now() + 600_000 });
    const started = Date.now();
    let stop = false;
    let triggers = 0;
    const producer = (async () => {
      const interval = 1000 / TRIGGERS_PER_SECOND;
      let next = Date.now();
      while (!stop) {
        next += interval;
        triggers += 1;
        await queryRows(
          db,
          sql`insert into messages (id, workspace_id, campaign_id, sender_id, phone_number, template_name, template_language, rendered_text, payload, source)
            values (${newId("msg")}, ${workspaceId}, ${triggerCampaign.id}, ${sender.id}, ${"+1650555" + String(triggers % 10000).padStart(4, "0")}, 'bench_promo', 'en_US', 'Your order shipped',
              ${JSON.stringify({ template: { name: "bench_promo", language: { code: "en_US" }, components: [] } })}::jsonb, 'trigger')`,
        );
        const wait = next - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    const channels = defaultChannels();
    while (true) {
      await runDispatch({ ...dispatchDependencies(), db, channels }, { deadlineMs: 20_000 });
      const [left] = await queryRows<{ n: number }>(
        db,
        sql`select (select count(*) from messages where campaign_id = ${campaign.id} and status in ('queued', 'sending'))::int
          + (select count(*) from bulk_snapshot_chunks where campaign_id = ${campaign.id})::int as n`,
      );
      if (Number(left?.n ?? 0) === 0) break;
      if (Date.now() - started > (RECIPIENTS / RATE) * 3 * 1000 + 120_000) {
        console.log("Giving up: the bulk send is far behind.");
        break;
      }
    }
    stop = true;
    await producer;
    await writing;
    const recipients = Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from messages where campaign_id = ${campaign.id}`))[0]?.n ?? 0);
    // The last triggers go out too.
    await runDispatch({ ...dispatchDependencies(), db, channels }, { deadlineMs: 5_000 });
    const [span] = await queryRows<{ first: string; last: string; sent: number }>(
      db,
      sql`select min(sent_at) as first, max(sent_at) as last, count(sent_at)::int as sent from messages where campaign_id = ${campaign.id}`,
    );
    const [peak] = await queryRows<{ peak: number }>(
      db,
      sql`select coalesce(max(n), 0)::int as peak from (
          select count(*) over (order by sent_at range between current row and interval '999 milliseconds' following) as n
          from messages where campaign_id = ${campaign.id} and sent_at is not null) w`,
    );
    const [latency] = await queryRows<{ n: number; p50: number; p99: number; max: number; over: number }>(
      db,
      sql`select count(*)::int as n,
          percentile_cont(0.5) within group (order by extract(epoch from sent_at - created_at))::float as p50,
          percentile_cont(0.99) within group (order by extract(epoch from sent_at - created_at))::float as p99,
          max(extract(epoch from sent_at - created_at))::float as max,
          (count(*) filter (where sent_at - created_at >= interval '2 seconds'))::int as over
        from messages where campaign_id = ${triggerCampaign.id} and sent_at is not null`,
    );
    const spanS = (new Date(span!.last).getTime() - new Date(span!.first).getTime()) / 1000;
    const ideal = recipients / RATE;
    const finishOk = spanS <= ideal * TARGETS.finishFactor;
    const peakOk = Number(peak?.peak ?? 0) <= RATE;
    const triggerOk = Number(latency?.over ?? 1) === 0;
    console.log({ recipients, spanS, ideal, peak, latency, triggers });
    lines.push(
      `### (b) ${recipients.toLocaleString("en-US")} recipients through the sandbox at ${RATE} msg/s, ${TRIGGERS_PER_SECOND} triggers/s on the same sender (throughput ${SENDER_THROUGHPUT}/s)`,
      "",
      `Measured from the stored \`sent_at\` of each message (the dispatcher in this process, one pass after another, the sandbox provider). ${
        RECIPIENTS < 100_000 ? `Scaled down (BULK_RECIPIENTS=${RECIPIENTS}); the full run is 100,000 (ideal 1,250 s).` : ""
      }`,
      "",
      "| measure | value | target | result |",
      "|---|---|---|---|",
      `| bulk: first to last send | **${spanS.toFixed(1)} s** (ideal ${ideal.toFixed(1)} s, ×${(spanS / ideal).toFixed(3)}) | ≤ ${TARGETS.finishFactor} × ideal | ${finishOk ? "pass" : "FAIL"} |`,
      `| bulk: most sends in any 1-second window | **${peak?.peak}** | ≤ ${RATE} | ${peakOk ? "pass" : "FAIL"} |`,
      `| bulk: sent of recipients | ${span?.sent} of ${recipients} | all | ${Number(span?.sent) === recipients ? "pass" : "FAIL"} |`,
      `| triggers: queued → sent (${latency?.n} of ${triggers}) | p50 ${Number(latency?.p50).toFixed(2)} s, p99 ${Number(latency?.p99).toFixed(2)} s, max ${Number(latency?.max).toFixed(2)} s; ${latency?.over} at 2 s or more | each < ${TARGETS.triggerS} s | ${triggerOk ? "pass" : "FAIL"} |`,
      "",
    );
  }

  writeResultsSection("bulk", ["## Bulk campaigns (`npm run bench:bulk`)", "", header, "", ...lines].join("\n"));
  await closeDb();
}

main().then(
  () => exitBench(Number(process.exitCode ?? 0)),
  (error: unknown) => {
    console.error(error);
    return exitBench(1);
  },
);
