// The dispatcher and delivery-status scenarios of `npm run test:reliability` (described at the top
// of bench/reliability.ts). Each takes the shared context, prints its figures and records checks.
import crypto from "node:crypto";
import { spawn } from "node:child_process";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "@/db";
import { rowsOf } from "@/db/rows";
import { messages, messageStatusInbox } from "@/db/schema";
import type { FakeGraphHandler, FakeGraphReply, FakeGraphRequest } from "@/lib/channels/whatsapp/testing/fake-graph";
import { getChannel } from "@/lib/channels";

const signPayload = (raw: string, secret: string) => getChannel("whatsapp").webhook!.sign(raw, secret);
import { createWhatsAppWorkspace, peakInWindow, queueMessages, recipientOf, restartablePostgres, statusWebhook, type Report, type WhatsAppWorkspace } from "./reliability-support";
import { BASE_URL, phoneNumbers, sleep } from "./trigger-support";

export interface ScenarioContext {
  report: Report;
  db: DB;
  short: boolean;
  /** Routes the fake Graph API's send requests for one phone number id to a handler. */
  route(phoneNumberId: string, handler: FakeGraphHandler): void;
}

const okSend = (wamid: string): FakeGraphReply => ({
  status: 200,
  body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: wamid }] },
});

/** Every request the fake saw for this workspace's number, with its arrival time and recipient. */
function recorder() {
  const arrivals: { at: number; to: string }[] = [];
  return {
    arrivals,
    record(request: FakeGraphRequest) {
      arrivals.push({ at: Date.now(), to: recipientOf(request.body) });
    },
    /** Recipients with more than one request. */
    duplicates(): [string, number][] {
      const counts = new Map<string, number>();
      for (const { to } of arrivals) counts.set(to, (counts.get(to) ?? 0) + 1);
      return [...counts].filter(([, n]) => n > 1);
    },
    recipients(): Set<string> {
      return new Set(arrivals.map((a) => a.to));
    },
  };
}

async function statusCounts(db: DB, ids: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .select({ status: messages.status, code: messages.errorCode, n: sql<number>`count(*)::int` })
      .from(messages)
      .where(inArray(messages.id, ids.slice(i, i + 5000)))
      .groupBy(messages.status, messages.errorCode);
    for (const row of rows) {
      const key = row.code ? `${row.status} (${row.code})` : row.status;
      out[key] = (out[key] ?? 0) + Number(row.n);
    }
  }
  return out;
}

async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean> | boolean): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    // A query may fail while the database restarts; that is "not yet".
    if (await Promise.resolve().then(done).catch(() => false)) return true;
    await sleep(500);
  }
  console.log(`  gave up waiting for ${what} after ${(timeoutMs / 1000).toFixed(0)} s`);
  return false;
}

const openCount = async (db: DB, workspaceId: string) => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), sql`${messages.status} in ('queued', 'sending')`));
  return Number(row!.n);
};

/**
 * Triggers one message per phone through the HTTP route, each with its own Idempotency-Key and
 * retried with it after a network error, a 5xx or a 429; returns the 202 ids (null: never accepted).
 */
async function triggerAll(ws: WhatsAppWorkspace, phones: string[], options: { concurrency: number; keyPrefix: string; onAccepted?: (accepted: number) => void; giveUpMs?: number }) {
  const ids: (string | null)[] = new Array(phones.length).fill(null);
  const statuses = new Map<number | string, number>();
  const unexpected: string[] = [];
  let retries = 0;
  let accepted = 0;
  let next = 0;
  const giveUpAt = Date.now() + (options.giveUpMs ?? 180_000);
  const sendOne = async (i: number) => {
    for (let attempt = 0; Date.now() < giveUpAt; attempt++) {
      try {
        const response = await fetch(`${BASE_URL}/api/campaigns/${ws.campaignId}/trigger`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": ws.apiKey, "idempotency-key": `${options.keyPrefix}-${i}` },
          body: JSON.stringify({ phone: phones[i], order: `${options.keyPrefix}-${i}`, first_name: "Rel" }),
          signal: AbortSignal.timeout(30_000),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const payload = (await response.json().catch(() => ({}))) as { id?: string };
        if (response.status === 202) {
          if (ids[i] !== null && ids[i] !== payload.id) unexpected.push(`request ${i}: a second 202 with another id`);
          ids[i] = payload.id ?? null;
          accepted++;
          options.onAccepted?.(accepted);
          return;
        }
        if (response.status !== 429 && response.status < 500) {
          unexpected.push(`request ${i}: ${response.status} ${JSON.stringify(payload)}`);
          return;
        }
      } catch {
        statuses.set("network error", (statuses.get("network error") ?? 0) + 1);
      }
      retries++;
      await sleep(Math.min(2000, 50 * 2 ** Math.min(attempt, 6)));
    }
  };
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < phones.length) await sendOne(next++);
    }),
  );
  return { ids, statuses: Object.fromEntries(statuses), retries, unexpected };
}

// ---- (a) three dispatching processes on one sender ----

export async function prepareSharedRate(ctx: ScenarioContext) {
  const rate = 20;
  const count = ctx.short ? 200 : 1200;
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000001", throughput: rate });
  const seen = recorder();
  let n = 0;
  ctx.route(ws.phoneNumberId, (request) => {
    seen.record(request);
    return { ...okSend(`wamid.RATE${++n}`), delayMs: 20 };
  });
  const ids = await queueMessages(ctx.db, ws, count, "+4479115");
  return { ws, ids, seen, rate, count };
}

export async function checkSharedRate(ctx: ScenarioContext, run: Awaited<ReturnType<typeof prepareSharedRate>>, processes: number) {
  const { report, db } = ctx;
  const { ws, ids, seen, rate, count } = run;
  report.section(`(a) ${processes} dispatching processes on one sender at ${rate}/s`);
  await waitFor("every message of (a) to be sent", (count / rate) * 3 * 1000 + 60_000, async () => seen.arrivals.length >= count && (await openCount(db, ws.workspaceId)) === 0);
  const times = seen.arrivals.map((a) => a.at);
  const peak = peakInWindow(times);
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  report.note(`${seen.arrivals.length} provider calls for ${count} messages over ${span.toFixed(1)} s (${((seen.arrivals.length - 1) / Math.max(span, 0.001)).toFixed(2)}/s); peak in any 1 s window: ${peak}; statuses ${JSON.stringify(await statusCounts(db, ids))}`);
  report.check(peak <= Math.floor(rate * 1.05), `(a) peak provider calls in any 1-second window ≤ rate + 5 % (${peak} ≤ ${Math.floor(rate * 1.05)})`);
  report.check(seen.duplicates().length === 0 && seen.recipients().size === count, `(a) each message sent exactly once (${seen.recipients().size} recipients, ${seen.duplicates().length} sent twice)`);
}

// ---- (c) a Graph API that answers after the client's send timeout ----

export async function prepareLateAnswers(ctx: ScenarioContext, sendTimeoutMs: number) {
  const count = ctx.short ? 20 : 100;
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000003", throughput: 50 });
  const seen = recorder();
  let n = 0;
  ctx.route(ws.phoneNumberId, (request) => {
    seen.record(request);
    return { ...okSend(`wamid.LATE${++n}`), delayMs: sendTimeoutMs + 1500 };
  });
  const ids = await queueMessages(ctx.db, ws, count, "+4479116");
  return { ws, ids, seen, count };
}

export async function checkLateAnswers(ctx: ScenarioContext, run: Awaited<ReturnType<typeof prepareLateAnswers>>) {
  const { report, db } = ctx;
  const { ids, seen, count } = run;
  report.section("(c) the Graph API answers after the client's send timeout");
  await waitFor("a request for every message of (c)", 120_000, () => seen.recipients().size >= count);
  // Long enough for any retry of a timed-out send to show up (backoff base 2 s, jittered).
  await sleep(ctx.short ? 10_000 : 60_000);
  const duplicates = seen.duplicates();
  const statuses = await statusCounts(db, ids);
  const unknown = Object.entries(statuses)
    .filter(([key]) => key.includes("outcome_unknown"))
    .reduce((sum, [, n]) => sum + n, 0);
  report.note(`${seen.arrivals.length} requests reached the fake for ${count} messages; statuses ${JSON.stringify(statuses)}; ${unknown} recorded as outcome unknown`);
  for (const [to, n] of duplicates.slice(0, 10)) report.note(`sent ${n} times: ${to}`);
  report.check(duplicates.length === 0, `(c) zero duplicate sends after client timeouts (${duplicates.length} recipients got more than one request)`);
}

// ---- (e) results-write failures injected by a Postgres trigger ----

export async function prepareResultWriteFailures(ctx: ScenarioContext) {
  const count = ctx.short ? 200 : 2000;
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000005", throughput: 100 });
  const seen = recorder();
  let n = 0;
  ctx.route(ws.phoneNumberId, (request) => {
    seen.record(request);
    return okSend(`wamid.WRITE${++n}`);
  });
  // A statement that records `sent` for this workspace's messages fails 30 % of the time. The
  // sequence counts the injected failures: nextval survives the rollback.
  for (const statement of [
    "create sequence if not exists reliability_injected_failures",
    `create or replace function reliability_fail_sent_write() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from reliability_new_rows where workspace_id = '${ws.workspaceId}' and status = 'sent') and random() < 0.3 then
        perform nextval('reliability_injected_failures');
        raise exception 'reliability: injected failure of a results write';
      end if;
      return null;
    end $$`,
    "drop trigger if exists reliability_fail_sent_write on messages",
    `create trigger reliability_fail_sent_write after update on messages
      referencing new table as reliability_new_rows for each statement execute function reliability_fail_sent_write()`,
  ]) {
    await ctx.db.execute(sql.raw(statement));
  }
  const ids = await queueMessages(ctx.db, ws, count, "+4479117");
  return { ws, ids, seen, count };
}

export async function dropResultWriteFailures(db: DB) {
  await db.execute(sql.raw("drop trigger if exists reliability_fail_sent_write on messages"));
  await db.execute(sql.raw("drop function if exists reliability_fail_sent_write()"));
}

export async function checkResultWriteFailures(ctx: ScenarioContext, run: Awaited<ReturnType<typeof prepareResultWriteFailures>>) {
  const { report, db } = ctx;
  const { ws, ids, seen, count } = run;
  report.section("(e) results writes failing (a trigger raises on 30 % of the statements recording `sent`)");
  await waitFor("every message of (e) to be final", 180_000, async () => seen.recipients().size >= count && (await openCount(db, ws.workspaceId)) === 0);
  await dropResultWriteFailures(db);
  const [counter] = rowsOf<{ injected: number; called: boolean }>(await db.execute(sql`select last_value::int as injected, is_called as called from reliability_injected_failures`));
  const injected = counter?.called ? Number(counter.injected) : 0;
  const statuses = await statusCounts(db, ids);
  const duplicates = seen.duplicates();
  report.note(`${seen.arrivals.length} requests for ${count} messages; injected results-write failures: ${injected}; statuses ${JSON.stringify(statuses)}`);
  for (const [to, n] of duplicates.slice(0, 10)) report.note(`sent ${n} times: ${to}`);
  report.check(duplicates.length === 0, `(e) zero duplicate sends while results writes fail (${duplicates.length} recipients got more than one request)`);
  report.check((statuses.sent ?? 0) === count, `(e) every message recorded as sent with its wamid once the writes went through (${statuses.sent ?? 0}/${count})`);
}

// ---- (d) statuses delivered before their send's wamid is stored ----

export async function statusesBeforeWamid(ctx: ScenarioContext) {
  const { report, db } = ctx;
  const count = ctx.short ? 100 : 1000;
  report.section("(d) signed status webhooks that arrive before the send's wamid is stored");
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000004", throughput: 100 });
  const webhookAnswers: Record<string, number> = {};
  let pending = 0;
  let n = 0;
  // Before answering a send, the fake delivers its `sent` and `delivered` statuses to the server and
  // waits for the 200: the dispatcher cannot have stored the wamid yet.
  ctx.route(ws.phoneNumberId, async () => {
    const wamid = `wamid.EARLY${++n}.${crypto.randomBytes(4).toString("hex")}`;
    const now = Math.floor(Date.now() / 1000);
    const raw = JSON.stringify(statusWebhook(ws, [{ id: wamid, status: "sent", timestamp: now }, { id: wamid, status: "delivered", timestamp: now }]));
    try {
      const response = await fetch(`${BASE_URL}/api/webhooks/whatsapp`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(raw, ws.appSecret) },
        body: raw,
        signal: AbortSignal.timeout(20_000),
      });
      webhookAnswers[response.status] = (webhookAnswers[response.status] ?? 0) + 1;
      const body = (await response.json()) as { pending?: number };
      pending += body.pending ?? 0;
    } catch {
      webhookAnswers["network error"] = (webhookAnswers["network error"] ?? 0) + 1;
    }
    return okSend(wamid);
  });
  const phones = phoneNumbers(count, 30_000);
  const triggered = await triggerAll(ws, phones, { concurrency: 10, keyPrefix: "early" });
  const ids = triggered.ids.filter((id): id is string => id !== null);
  report.check(ids.length === count && triggered.unexpected.length === 0, `(d) every trigger accepted (${ids.length}/${count}${triggered.unexpected.length ? `; ${triggered.unexpected.slice(0, 3).join("; ")}` : ""})`);
  await waitFor("every message of (d) to be delivered", 120_000, async () => (await statusCounts(db, ids)).delivered === count);
  const statuses = await statusCounts(db, ids);
  const [held] = await db.select({ n: sql<number>`count(*)::int` }).from(messageStatusInbox).where(eq(messageStatusInbox.workspaceId, ws.workspaceId));
  report.note(`webhook answers ${JSON.stringify(webhookAnswers)}; statuses held because their wamid was not stored yet: ${pending}; final ${JSON.stringify(statuses)}; still held: ${held!.n}`);
  report.check(pending > 0, `(d) the statuses really arrived before their wamid (${pending} held)`);
  report.check(statuses.delivered === count, `(d) every early status applied: all ${count} messages delivered (${statuses.delivered ?? 0})`);
  report.check(Number(held!.n) === 0, `(d) nothing left in the status inbox (${held!.n})`);
}

// ---- (b) a Postgres restart mid-load ----

export async function postgresRestart(ctx: ScenarioContext) {
  const { report, db } = ctx;
  report.section("(b) Postgres restarted mid-load");
  const version = restartablePostgres();
  // It took 50 s on a loaded 2-core machine (the restart alone 17 s): over short mode's budget.
  const wanted = process.env.RELIABILITY_PG_RESTART === "1" || (!ctx.short && process.env.RELIABILITY_PG_RESTART !== "0");
  if (!wanted || !version) {
    const why = !version ? "pg_ctlcluster is not available or not permitted here" : ctx.short ? "short mode (RELIABILITY_PG_RESTART=1 runs it)" : "RELIABILITY_PG_RESTART=0";
    report.note(`skipped: ${why}`);
    return;
  }
  const count = ctx.short ? 300 : 3000;
  const ws = await createWhatsAppWorkspace({ phoneNumberId: "300000002", throughput: 200 });
  let n = 0;
  ctx.route(ws.phoneNumberId, () => okSend(`wamid.PGRESTART${++n}`));
  const phones = phoneNumbers(count, 40_000);
  let restart: Promise<{ ok: boolean; output: string; seconds: number }> | null = null;
  const started = Date.now();
  const triggered = await triggerAll(ws, phones, {
    concurrency: 20,
    keyPrefix: "pgrestart",
    onAccepted: (accepted) => {
      if (restart || accepted < count / 3) return;
      console.log(`  restarting Postgres ${version} after ${accepted} accepted requests`);
      restart = new Promise((resolve) => {
        const began = Date.now();
        const child = spawn("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "restart"], { stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.once("exit", (code) => resolve({ ok: code === 0, output: output.trim(), seconds: (Date.now() - began) / 1000 }));
      });
    },
  });
  const restarted = restart ? await (restart as Promise<{ ok: boolean; output: string; seconds: number }>) : null;
  const ids = triggered.ids.filter((id): id is string => id !== null);
  report.note(`${count} triggers in ${((Date.now() - started) / 1000).toFixed(1)} s; restart ${restarted ? `${restarted.ok ? "took" : "FAILED after"} ${restarted.seconds.toFixed(1)} s${restarted.ok ? "" : `: ${restarted.output}`}` : "never happened"}; responses ${JSON.stringify(triggered.statuses)}; ${triggered.retries} client retries with the same Idempotency-Key`);
  report.check(restarted?.ok === true, "(b) Postgres was restarted mid-load");
  report.check(ids.length === count && triggered.unexpected.length === 0, `(b) every request was accepted in the end (${ids.length}/${count}${triggered.unexpected.length ? `; ${triggered.unexpected.slice(0, 3).join("; ")}` : ""})`);
  // Our own pool saw the restart too; postgres.js reconnects on the next query.
  await waitFor("the database after the restart", 30_000, async () => {
    try {
      await db.execute(sql`select 1`);
      return true;
    } catch {
      return false;
    }
  });
  const stored = new Set<string>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db.select({ id: messages.id }).from(messages).where(inArray(messages.id, ids.slice(i, i + 5000)));
    for (const row of rows) stored.add(row.id);
  }
  const lost = ids.filter((id) => !stored.has(id));
  report.check(lost.length === 0, `(b) 0 accepted (202) messages lost (${lost.length} missing${lost.length ? `: ${lost.slice(0, 5).join(", ")}` : ""})`);
  await waitFor("every message of (b) to be sent", 120_000, async () => (await openCount(db, ws.workspaceId)) === 0);
  const statuses = await statusCounts(db, ids);
  report.note(`final statuses ${JSON.stringify(statuses)}`);
  report.check((statuses.sent ?? 0) === ids.length, `(b) every accepted message was sent after the restart (${statuses.sent ?? 0}/${ids.length})`);
}
