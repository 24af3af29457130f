// (f) of `npm run test:reliability`: a bulk campaign launched through `POST /api/v1/campaigns/{id}/launch`
// to N contacts (full: 100,000; short: 2,000) through a fake Cloud API failing 30 % of sends (HTTP
// 500, and error 130429 in short mode or 131056 in full mode, all retried; 130429 holds the whole
// sender for a second, so at 15 % of a 100,000 send it would stretch the run to hours, while 131056
// backs off only its recipient), while the server is SIGKILLed 5 times at random moments and
// restarted. → every contact ends with exactly one message of the campaign, in a final state; no
// contact got two accepted sends (a send in flight at a kill was marked so before its request left,
// and is settled as outcome unknown instead of being sent again); and the claims each killed
// process held are taken over without waiting for their 60 s lease (its advisory lock went with it).
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { graphError, type FakeGraphReply } from "@/lib/channels/whatsapp/testing/fake-graph";
import { createWhatsAppWorkspace, recipientOf } from "./reliability-support";
import type { ScenarioContext } from "./reliability-scenarios";
import { BASE_URL, sleep } from "./trigger-support";

const KILLS = 5;

export async function bulkUnderKills(ctx: ScenarioContext, server: { killAndRestart(whileDown?: () => Promise<void>): Promise<number> }) {
  const { report, db } = ctx;
  const count = Number(process.env.RELIABILITY_BULK_CONTACTS ?? (ctx.short ? 2000 : 100_000));
  report.section(`(f) a bulk campaign to ${count} contacts, 30 % of sends failing, the server SIGKILLed ${KILLS} times`);
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000006", throughput: ctx.short ? 200 : 1000 });
  await import("@/lib/engine/campaign-kinds");
  const { createCampaign } = await import("@/lib/campaigns/service");
  const { liveClaimOwners } = await import("@/lib/messaging/owner");
  const { DEFAULT_LEASE_MS } = await import("@/lib/messaging/dispatcher");
  const { INTERRUPTED_SEND_REASON } = await import("@/lib/messaging/errors");
  const { newId } = await import("@/lib/crypto/random");
  const [template] = rowsOf<{ id: string }>(await db.execute(sql`select id from templates where workspace_id = ${ws.workspaceId} limit 1`));
  const listId = newId("lst");
  await db.execute(sql`insert into contact_lists (id, workspace_id, name) values (${listId}, ${ws.workspaceId}, 'Reliability')`);
  await db.execute(sql`insert into contacts (id, workspace_id, phone_number, name, attributes)
    select 'ctc_rel_' || g, ${ws.workspaceId}, '+35191' || lpad(g::text, 7, '0'), 'Person ' || g, jsonb_build_object('order_id', 'B' || g)
    from generate_series(1, ${count}) g`);
  await db.execute(sql`insert into contact_list_members (list_id, contact_id) select ${listId}, 'ctc_rel_' || g from generate_series(1, ${count}) g`);
  const campaign = await createCampaign(db, ws.workspaceId, {
    kind: "bulk",
    name: "Reliability bulk",
    audience: { listIds: [listId], segmentIds: [] },
    templateId: template!.id,
    messageConfig: {
      variables: [
        { key: "header.1", attribute: "order_id", fallback: "B0" },
        { key: "body.1", attribute: "name", fallback: "there" },
        { key: "body.2", attribute: "order_id", fallback: "B0" },
        { key: "button.0.1", attribute: "order_id", fallback: "B0" },
      ],
    },
  });

  const accepted: { at: number; to: string; wamid: string }[] = [];
  let requests = 0;
  let n = 0;
  ctx.route(ws.phoneNumberId, (request): FakeGraphReply => {
    requests++;
    const roll = Math.random();
    if (roll < 0.15) return { status: 500, text: "Internal Server Error" };
    if (roll < 0.3) return ctx.short ? graphError(130429, "Rate limit hit", 400) : graphError(131056, "(Business Account, Consumer Account) pair rate limit hit", 400);
    const wamid = `wamid.BULK${++n}`;
    accepted.push({ at: Date.now(), to: recipientOf(request.body), wamid });
    return { status: 200, body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: wamid }] } };
  });

  // Launch through the API (a launch is idempotent: retried after a network error it changes nothing).
  let launched = 0;
  for (let attempt = 0; attempt < 10 && launched === 0; attempt++) {
    try {
      const response = await fetch(`${BASE_URL}/api/v1/campaigns/${campaign.id}/launch`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ws.apiKey}` },
        body: JSON.stringify({ allowTierWait: true }),
        signal: AbortSignal.timeout(120_000),
      });
      if (response.ok) launched = response.status;
      else {
        report.note(`launch answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
        break;
      }
    } catch {
      await sleep(1000);
    }
  }
  report.check(launched === 200, `(f) the campaign was launched through POST /api/v1/campaigns/{id}/launch (${launched || "not launched"})`);
  if (launched !== 200) return;

  // Each kill comes at a random moment while the (restarted) server is sending: after its first
  // accepted send, within the time a fifth of the audience takes at the sender's rate.
  const spreadMs = (count / (ctx.short ? 200 : 1000) / KILLS) * 1000;
  const kills: number[] = [];
  /** Messages of the campaign still `sending` under a claim owner whose lock is free (a killed process's). */
  const orphaned = async () => {
    const [row] = rowsOf<{ n: number; in_flight: number }>(
      await db.execute(sql`select count(*)::int as n, count(in_flight_at)::int as in_flight from messages
        where campaign_id = ${campaign.id} and status = 'sending' and claim_owner is not null and claim_owner <> all(${liveClaimOwners})`),
    );
    return { held: Number(row!.n), inFlight: Number(row!.in_flight) };
  };
  const takeovers: { held: number; inFlight: number; afterMs: number }[] = [];
  for (let i = 0; i < KILLS; i++) {
    const before = accepted.length;
    const sending = Date.now();
    while (accepted.length === before && Date.now() - sending < 120_000) await sleep(100);
    await sleep(Math.random() * spreadMs);
    console.log(`  kill ${i + 1}/${KILLS} (SIGKILL) after ${accepted.length} accepted sends`);
    // The moment the killed process was seen gone; what it held is counted while it is down.
    let left = { held: 0, inFlight: 0 };
    const diedAt = await server.killAndRestart(async () => {
      left = await orphaned().catch(() => left);
    });
    kills.push(diedAt);
    // The restarted server's first pass takes the dead process's claims over (no lease wait).
    while ((await orphaned().catch(() => ({ held: 1, inFlight: 0 }))).held > 0 && Date.now() - diedAt < 3 * DEFAULT_LEASE_MS) await sleep(200);
    takeovers.push({ ...left, afterMs: Date.now() - diedAt });
    console.log(`    it held ${left.held} claims (${left.inFlight} in flight); taken over ${((Date.now() - diedAt) / 1000).toFixed(1)} s after it died`);
  }

  const open = async () => {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from messages where campaign_id = ${campaign.id} and status in ('queued', 'sending')`));
    return Number(row!.n);
  };
  const started = Date.now();
  // Retries back off exponentially (up to 6 attempts).
  const limitMs = ctx.short ? 600_000 : 1_800_000;
  let left = await open();
  while (left > 0 && Date.now() - started < limitMs) {
    console.log(`  ${left} bulk messages still queued or sending (retries back off)`);
    await sleep(5000);
    left = await open().catch(() => left);
  }

  const perContact = rowsOf<{ messages: number; contacts: number }>(
    await db.execute(sql`select m as messages, count(*)::int as contacts from (
      select c.id, count(msg.id)::int as m from contacts c
      left join messages msg on msg.contact_id = c.id and msg.campaign_id = ${campaign.id}
      where c.workspace_id = ${ws.workspaceId} group by c.id) per group by m order by m`),
  );
  const statuses = rowsOf<{ status: string; n: number }>(await db.execute(sql`select status, count(*)::int as n from messages where campaign_id = ${campaign.id} group by status order by status`));
  const [campaignRow] = rowsOf<{ status: string }>(await db.execute(sql`select status from campaigns where id = ${campaign.id}`));
  const byRecipient = new Map<string, (typeof accepted)[number][]>();
  for (const send of accepted) byRecipient.set(send.to, [...(byRecipient.get(send.to) ?? []), send]);
  const twice = [...byRecipient].filter(([, sends]) => sends.length > 1);
  const storedWamids = new Set(
    twice.length === 0
      ? []
      : rowsOf<{ wamid: string }>(
          await db.execute(sql`select wamid from messages where campaign_id = ${campaign.id} and wamid is not null and phone_number in (${sql.join(
            twice.map(([to]) => sql`${to}`),
            sql`, `,
          )})`),
        ).map((row) => row.wamid),
  );
  const [interrupted] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from messages where campaign_id = ${campaign.id} and status = 'failed' and error_reason = ${INTERRUPTED_SEND_REASON}`),
  );
  const slowest = Math.max(...takeovers.map((t) => t.afterMs));

  report.note(`${requests} provider requests, ${accepted.length} accepted sends for ${count} contacts in ${((Date.now() - kills[0]!) / 1000 + 0).toFixed(0)} s after the first kill; messages per contact ${JSON.stringify(perContact)}; statuses ${JSON.stringify(statuses)}; campaign ${campaignRow?.status}`);
  report.note(`killed processes seen gone at ${kills.map((kill) => new Date(kill).toISOString().slice(11, 23)).join(", ")} (UTC)`);
  report.note(
    `claims held by each killed process (in flight): ${takeovers.map((t) => `${t.held} (${t.inFlight})`).join(", ")}; taken over ${takeovers.map((t) => (t.afterMs / 1000).toFixed(1)).join(", ")} s after it died (restart included; the lease is ${DEFAULT_LEASE_MS / 1000} s)`,
  );
  report.note(`sends in flight at a kill, settled as outcome unknown (not sent again): ${Number(interrupted?.n ?? 0)}; contacts sent twice: ${twice.length}`);
  for (const [to, sends] of twice.slice(0, 10)) {
    report.note(`sent ${sends.length} times: ${to} at ${sends.map((send) => `${new Date(send.at).toISOString()} (${send.wamid}${storedWamids.has(send.wamid) ? ", recorded" : ""})`).join(", ")}`);
  }
  report.check(left === 0, `(f) every message reached a final state (${left} still queued or sending)`);
  report.check(perContact.length === 1 && Number(perContact[0]!.messages) === 1 && Number(perContact[0]!.contacts) === count, `(f) every contact has exactly one message of the campaign (${JSON.stringify(perContact)})`);
  report.check(twice.length === 0, `(f) zero contacts sent twice (${twice.length})`);
  report.check(slowest < DEFAULT_LEASE_MS, `(f) every killed process's claims were taken over before its lease would have run out (slowest ${(slowest / 1000).toFixed(1)} s, lease ${DEFAULT_LEASE_MS / 1000} s)`);
}
