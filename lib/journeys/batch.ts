// Due runs in batches: one transaction claims up to `limit` due runs (FOR UPDATE SKIP LOCKED, so
// passes in several processes take disjoint runs) and executes the common shape set-based — an
// `active` run (not a test run) at a send step followed by the end, nothing, or a duration wait —
// with one statement per kind of write for the whole batch and one commit. Every other run (a
// waiting run, another step, a frequency cap, a template or sender problem) is executed afterwards
// by `advanceRun`, one transaction each, exactly as before. An exit event waits for the batch's
// commit (it locks the run first), then skips what the batch queued.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { OptOutMethod } from "@/db/schema";
import { messageSkips } from "@/lib/campaigns/frequency-cap";
import { stepById, type Journey, type SendStep } from "@/lib/campaigns/journey";
import { newId } from "@/lib/crypto/random";
import { composeFor } from "@/lib/outbox/compose";
import { enqueueMessages, type QueuedMessage } from "@/lib/outbox/enqueue";
import type { ParameterFormat } from "@/lib/templates";
import { scaledDue, TIMER_TOKEN, type RunContext } from "./run";
import { sendingColumns, sendingCte } from "./steps/send";
import { advanceRun, type RunnerPass } from "./runner";
import { loadJourneyVersion } from "./versions";
import { wakeRuns } from "./wake";

interface ClaimedRun {
  id: string;
  workspace_id: string;
  campaign_id: string;
  version: number;
  contact_id: string;
  phone_number: string;
  status: "active" | "waiting";
  step_id: string | null;
  context: RunContext;
  entry: string;
  time_scale: number;
  contact: { name: string | null; attributes: Record<string, unknown> | null; opted_out_at: string | null; opt_out_method: OptOutMethod | null; opt_out_detail: string | null } | null;
}

interface GroupContext {
  template: { name: string; language: string; status: string; statusReason: string | null; parameterFormat: ParameterFormat; components: unknown[] } | null;
  sender: { id: string } | null;
  campaign: { respect_opt_out: boolean; frequency_cap: unknown } | null;
}

/** What a batched run becomes: its history rows and its row's new state. */
interface Outcome {
  id: string;
  campaignId: string;
  history: { stepId: string; outcome: string; messageId: string | null; detail: string | null }[];
  status: "completed" | "waiting";
  stepId: string | null;
  dueAt: string | null;
  waitToken: string | null;
  lastMessageId: string;
}

/** The campaign's template, sender and policy for a send step: one statement per group. */
async function loadGroupContext(tx: Executor, run: ClaimedRun, step: SendStep): Promise<GroupContext> {
  const [row] = await queryRows<GroupContext>(
    tx,
    sql`with ${sendingCte(run)} select ${sendingColumns(run, step)}`,
  );
  return row!;
}

/** The step after a send that the batch takes too: none, the end, or a duration wait. */
function batchableAfter(journey: Journey, step: SendStep): boolean {
  const next = stepById(journey, step.next);
  return step.next === null || next?.type === "end" || (next?.type === "wait" && next.wait.kind === "duration");
}

/** Executes the batchable runs of one (campaign, version, step) group; returns the runs it could not. */
async function sendGroup(tx: Executor, journey: Journey, step: SendStep, runs: ClaimedRun[], now: Date, outcomes: Outcome[]): Promise<ClaimedRun[]> {
  const loaded = await loadGroupContext(tx, runs[0]!, step);
  if (!loaded.template || loaded.template.status !== "APPROVED" || !loaded.sender || !loaded.campaign || (loaded.campaign.frequency_cap !== null && typeof loaded.campaign.frequency_cap === "object")) {
    return runs;
  }
  const leftover: ClaimedRun[] = [];
  const messages: QueuedMessage[] = [];
  const contacts = new Map<string, { id: string; phone: string; name: null; attributes: Record<string, unknown> }>();
  const next = stepById(journey, step.next);
  for (const run of runs) {
    if (!run.contact) {
      leftover.push(run);
      continue;
    }
    const composed = composeFor(
      { workspaceId: run.workspace_id, campaignId: run.campaign_id, senderId: loaded.sender.id, template: loaded.template, messageConfig: step.messageConfig },
      { phone: run.phone_number, contact: run.contact, incoming: run.context.attributes ?? {} },
    );
    if (!composed.ok) {
      leftover.push(run);
      continue;
    }
    // The batch takes no capped campaign: only the opt-out can skip here.
    const skip = messageSkips([run.phone_number], { stored: new Map([[run.phone_number, run.contact]]), respectOptOut: loaded.campaign.respect_opt_out })[0]!;
    const messageId = newId("msg");
    messages.push({ id: messageId, draft: composed.draft, skip, journeyRunId: run.id, journeyStepId: step.id });
    if (!contacts.has(run.phone_number)) contacts.set(run.phone_number, { id: newId("ctc"), phone: run.phone_number, name: null, attributes: {} });
    const history: Outcome["history"] = [{ stepId: step.id, outcome: skip ? "skipped" : "sent", messageId, detail: skip ? `${skip.errorCode}: ${skip.errorReason}` : null }];
    if (next?.type === "wait" && next.wait.kind === "duration") {
      const dueAt = scaledDue(now, next.wait.seconds, run.time_scale).toISOString();
      outcomes.push({ id: run.id, campaignId: run.campaign_id, history, status: "waiting", stepId: next.id, dueAt, waitToken: TIMER_TOKEN, lastMessageId: messageId });
    } else {
      if (next?.type === "end") history.push({ stepId: next.id, outcome: "completed", messageId: null, detail: null });
      outcomes.push({ id: run.id, campaignId: run.campaign_id, history, status: "completed", stepId: null, dueAt: null, waitToken: null, lastMessageId: messageId });
    }
  }
  if (messages.length > 0) {
    const first = runs[0]!;
    await enqueueMessages(tx, {
      workspaceId: first.workspace_id,
      campaignId: first.campaign_id,
      apiKeyId: null,
      contacts: [...contacts.values()].sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0)),
      messages,
      createdAt: now,
    });
  }
  return leftover;
}

/** Writes the batch's history rows and run rows: two statements. */
async function writeOutcomes(tx: Executor, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const history = outcomes.flatMap((o) => o.history.map((h, n) => ({ id: newId("jrs"), run_id: o.id, campaign_id: o.campaignId, step_id: h.stepId, outcome: h.outcome, message_id: h.messageId, detail: h.detail, n })));
  await tx.execute(sql`insert into journey_run_steps (id, run_id, campaign_id, step_id, outcome, message_id, detail, at)
    select x.id, x.run_id, x.campaign_id, x.step_id, x.outcome, x.message_id, x.detail, clock_timestamp() + make_interval(secs => x.n * 0.000001)
    from jsonb_to_recordset(${JSON.stringify(history)}::jsonb) as x(id text, run_id text, campaign_id text, step_id text, outcome text, message_id text, detail text, n int)`);
  const rows = outcomes.map((o) => ({ id: o.id, status: o.status, step_id: o.stepId, due_at: o.dueAt, wait_token: o.waitToken, last_message_id: o.lastMessageId }));
  await tx.execute(sql`update journey_runs r
    set status = x.status, step_id = x.step_id, due_at = x.due_at, wait_token = x.wait_token, last_message_id = x.last_message_id,
      ended_at = case when x.status = 'completed' then now() else r.ended_at end, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, status text, step_id text, due_at timestamptz, wait_token text, last_message_id text)
    where r.id = x.id`);
}

/**
 * One pass: wakes runs whose event happened, claims up to `limit` due runs, executes the batchable
 * ones in one transaction, then the others one by one (`advanceRun`).
 */
export async function runDueBatch(db: Executor, options: { limit?: number; deadline?: number } = {}): Promise<RunnerPass> {
  const woken = await wakeRuns(db);
  let leftover: ClaimedRun[] = [];
  let batched = 0;
  await db.transaction(async (tx) => {
    const claimed = await queryRows<ClaimedRun>(
      tx,
      sql`with due as (
          select id from journey_runs where status in ('active', 'waiting') and due_at <= now()
          order by due_at limit ${options.limit ?? 500} for update skip locked
        )
        select r.id, r.workspace_id, r.campaign_id, r.version, r.contact_id, r.phone_number, r.status, r.step_id, r.context, r.entry, r.time_scale,
          (select jsonb_build_object('name', ct.name, 'attributes', ct.attributes, 'opted_out_at', ct.opted_out_at,
              'opt_out_method', ct.opt_out_method, 'opt_out_detail', ct.opt_out_detail) from contacts ct where ct.id = r.contact_id) as contact
        from due join journey_runs r on r.id = due.id`,
    );
    const now = new Date();
    const groups = new Map<string, { journey: Journey; step: SendStep; runs: ClaimedRun[] }>();
    for (const run of claimed) {
      // Test runs' sends are test sends (steps/send.ts): left to the runner.
      const journey = run.status === "active" && run.entry !== "test" ? await loadJourneyVersion(tx, run.campaign_id, run.version) : null;
      const step = journey ? stepById(journey, run.step_id) : null;
      if (!journey || step?.type !== "send" || !batchableAfter(journey, step)) {
        leftover.push(run);
        continue;
      }
      const key = `${run.campaign_id}:${run.version}:${step.id}`;
      const group = groups.get(key) ?? { journey, step, runs: [] };
      group.runs.push(run);
      groups.set(key, group);
    }
    const outcomes: Outcome[] = [];
    for (const group of groups.values()) leftover = leftover.concat(await sendGroup(tx, group.journey, group.step, group.runs, now, outcomes));
    await writeOutcomes(tx, outcomes);
    batched = outcomes.length;
  });
  // Released by the commit: each is taken again, and executed, by its own transaction.
  let steps = batched;
  for (const run of leftover) {
    if (options.deadline !== undefined && Date.now() >= options.deadline) break;
    steps += await advanceRun(db, run.id);
  }
  const [next] = await queryRows<{ ms: number | null }>(
    db,
    sql`select (extract(epoch from (min(due_at) - now())) * 1000)::float8 as ms from journey_runs where status in ('active', 'waiting')`,
  );
  return { ran: batched + leftover.length, steps, woken, nextDueMs: next?.ms === null || next?.ms === undefined ? null : Math.max(0, Number(next.ms)) };
}
