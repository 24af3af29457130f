// The runner: takes due runs (SKIP LOCKED) and executes each one's steps inside one transaction per
// run, until it waits or ends. A step's effects (a queued message, a contact change) and the run's
// advance commit together, so a crash between steps resumes at the next step and never sends twice.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { stepById, type JourneyStep } from "@/lib/campaigns/journey";
import { newId } from "@/lib/crypto/random";
import { finishRuns } from "./finish";
import { TIMER_TOKEN, type History, type RunRow, type StepContext, type StepResult } from "./run";
import { runBranchStep } from "./steps/branch";
import { runSendStep } from "./steps/send";
import { runUpdateContactStep } from "./steps/update-contact";
import { runWaitForEventStep } from "./steps/wait-for-event";
import { runWaitStep } from "./steps/wait";
import { loadJourneyVersion } from "./versions";
import { wakeRuns } from "./wake";

/** More steps than a journey can have in a row: a guard, never reached by a checked document. */
const MAX_STEPS_PER_ADVANCE = 60;

export interface AdvanceOptions {
  /** Called after each step's effects, before the run's advance commits (tests: a crash there). */
  afterStep?: (step: JourneyStep, run: RunRow) => void | Promise<void>;
}

function runStep(context: StepContext, step: JourneyStep): Promise<StepResult> | StepResult {
  switch (step.type) {
    case "send":
      return runSendStep(context, step);
    case "wait":
      return runWaitStep(context, step);
    case "wait_for_event":
      return runWaitForEventStep(context, step);
    case "branch":
      return runBranchStep(context, step);
    case "update_contact":
      return runUpdateContactStep(context, step);
    case "end":
      return { kind: "next", history: { stepId: step.id, outcome: "completed" }, next: null };
  }
}

/** A waiting run that is due: its wait ends (a timer, an event that woke it) or times out. */
function resume(run: RunRow, step: JourneyStep | null): StepResult {
  if (step?.type === "wait") return { kind: "next", history: { stepId: step.id, outcome: "waited" }, next: step.next };
  if (step?.type === "wait_for_event") {
    return run.wait_token === null || run.wait_token === TIMER_TOKEN
      ? { kind: "next", history: { stepId: step.id, outcome: "event" }, next: step.next }
      : { kind: "next", history: { stepId: step.id, outcome: "timeout" }, next: step.timeoutNext };
  }
  return { kind: "fail", error: `The run waits in step "${run.step_id}", which its journey version does not have.` };
}

async function writeHistory(tx: Executor, run: RunRow, rows: History[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((h, n) => ({ n, id: newId("jrs"), step_id: h.stepId, outcome: h.outcome, message_id: h.messageId ?? null, detail: h.detail ?? null }));
  await tx.execute(sql`insert into journey_run_steps (id, run_id, campaign_id, step_id, outcome, message_id, detail, at)
    select x.id, ${run.id}, ${run.campaign_id}, x.step_id, x.outcome, x.message_id, x.detail, now() + x.n * interval '1 microsecond'
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(n int, id text, step_id text, outcome text, message_id text, detail text)
    order by n`);
}

/**
 * Executes one due run's steps in one transaction, holding its row; a run another pass holds, or no
 * longer due, is left alone. Returns the number of steps taken.
 */
export async function advanceRun(db: Executor, runId: string, options: AdvanceOptions = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const [run] = await queryRows<RunRow>(
      tx,
      sql`select id, workspace_id, campaign_id, version, contact_id, phone_number, status, step_id, wait_token, context,
          last_message_id, last_reply, entry, time_scale, converted_at
        from journey_runs where id = ${runId} and status in ('active', 'waiting') and due_at <= now()
        for update skip locked`,
    );
    if (!run) return 0;
    const journey = await loadJourneyVersion(tx, run.campaign_id, run.version);
    if (!journey) {
      await finishRuns(tx, sql`r.id = ${run.id}`, "failed", `Version ${run.version} of the journey is missing or unreadable.`);
      return 0;
    }
    const context: StepContext = { tx, run, journey, now: new Date() };
    const history: History[] = [];
    let converted = false;
    let result: StepResult = run.status === "waiting" ? resume(run, stepById(journey, run.step_id)) : { kind: "next", history: null!, next: run.step_id };
    let stepId = run.step_id;
    let steps = 0;
    for (;;) {
      if (result.kind === "fail") break;
      if (result.kind === "wait") break;
      if (result.history) history.push(result.history);
      if (result.lastMessageId) run.last_message_id = result.lastMessageId;
      if (result.lastReply) run.last_reply = result.lastReply;
      if (result.converted) converted = true;
      stepId = result.next;
      const step = stepById(journey, stepId);
      if (!step) break;
      if (++steps > MAX_STEPS_PER_ADVANCE) {
        result = { kind: "fail", error: "The run took more steps in a row than a journey can have." };
        break;
      }
      result = await runStep(context, step);
      await options.afterStep?.(step, run);
    }
    await writeHistory(tx, run, history);
    if (result.kind === "fail") {
      await tx.execute(sql`update journey_runs set step_id = ${stepId}, last_message_id = ${run.last_message_id}, error = ${result.error}, updated_at = now() where id = ${run.id}`);
      await finishRuns(tx, sql`r.id = ${run.id}`, "failed", result.error);
      return steps;
    }
    const convertedSql = converted ? sql`coalesce(converted_at, now())` : sql`converted_at`;
    const reply = run.last_reply ? sql`${JSON.stringify(run.last_reply)}::jsonb` : sql`null`;
    if (result.kind === "wait") {
      await tx.execute(sql`update journey_runs set status = 'waiting', step_id = ${stepId}, due_at = ${result.dueAt.toISOString()}::timestamptz,
        wait_token = ${result.waitToken}, last_message_id = ${run.last_message_id}, last_reply = ${reply}, converted_at = ${convertedSql}, updated_at = now()
        where id = ${run.id}`);
    } else if (stepId !== null && !stepById(journey, stepId)) {
      await tx.execute(sql`update journey_runs set last_message_id = ${run.last_message_id} where id = ${run.id}`);
      await finishRuns(tx, sql`r.id = ${run.id}`, "failed", `Step "${stepId}" is not in version ${run.version} of the journey.`);
    } else {
      await tx.execute(sql`update journey_runs set status = 'completed', step_id = null, due_at = null, wait_token = null, ended_at = now(),
        last_message_id = ${run.last_message_id}, last_reply = ${reply}, converted_at = ${convertedSql}, updated_at = now()
        where id = ${run.id}`);
    }
    return steps;
  });
}

export interface RunnerPass {
  /** Runs advanced. */
  ran: number;
  steps: number;
  woken: number;
  /** Milliseconds until the next run falls due (null: none going). */
  nextDueMs: number | null;
}

/** One pass: wakes runs whose event happened, then advances up to `limit` due runs, oldest due first. */
export async function runDueRuns(db: Executor, options: { limit?: number; deadline?: number } & AdvanceOptions = {}): Promise<RunnerPass> {
  const woken = await wakeRuns(db);
  const due = await queryRows<{ id: string }>(
    db,
    sql`select id from journey_runs where status in ('active', 'waiting') and due_at <= now() order by due_at limit ${options.limit ?? 100}`,
  );
  let ran = 0;
  let steps = 0;
  for (const { id } of due) {
    if (options.deadline !== undefined && Date.now() >= options.deadline) break;
    steps += await advanceRun(db, id, options);
    ran += 1;
  }
  const [next] = await queryRows<{ ms: number | null }>(
    db,
    sql`select (extract(epoch from (min(due_at) - now())) * 1000)::float8 as ms from journey_runs where status in ('active', 'waiting')`,
  );
  return { ran, steps, woken, nextDueMs: next?.ms === null || next?.ms === undefined ? null : Math.max(0, Number(next.ms)) };
}
