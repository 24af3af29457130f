// Entering runs: contacts upserted and their runs inserted at the journey's first step in one
// statement, the re-entry rule decided inside it (against the runs already stored), with an
// optional claim (the trigger's idempotency key) that gates every write and stores the answer.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { lockKeysForTransaction } from "@/db/locks";
import { queryRows } from "@/db/rows";
import type { Journey } from "@/lib/campaigns/journey";
import { externalEventToken } from "@/lib/campaigns/journey";
import { contactUpsertConflictWithRules } from "@/lib/contacts/service";
import type { ContactUpsert } from "@/lib/outbox/enqueue";
import { contactEventCtes, EXITED_IDS_SQL } from "./contact-events";
import { skipQueuedOfRuns } from "./finish";

export const REENTRY_CODE = "journey_reentry";
export type RunEntryKind = "trigger" | "event" | "test";

/** One wanted run; `answer` is what the caller answers for it (status `active`, or already `skipped`). */
export interface RunEntry {
  id: string;
  phone: string;
  /** The request item's mapped attributes and fields, or the event's properties. */
  context: Record<string, unknown>;
  answer: Record<string, unknown>;
  /** False: the caller already refused it (opted out, …); no run, its answer stays. */
  enter: boolean;
}

export interface EnterInput {
  workspaceId: string;
  campaignId: string;
  version: number;
  journey: Journey;
  entry: RunEntryKind;
  timeScale?: number;
  /** Re-entry is not checked (test runs). */
  ignoreReentry?: boolean;
  /** The caller's transaction already holds these entries' locks (`lockEntries`): not taken again. */
  entriesLocked?: boolean;
  contacts: ContactUpsert[];
  fillWhenEmpty?: readonly string[];
  entries: RunEntry[];
  /** An event for the upserted contacts (`campaign:<id>` for a trigger): exits, wakes and conversions of their other runs. */
  event?: { token: string; reason: string } | null;
  /** Given the answers (a jsonb array, in order), a statement that must return a row for anything to be written. */
  claim?: ((answers: SQL) => SQL) | null;
}

export interface EnterResult {
  /** False: the claim returned no row and nothing was written. */
  claimed: boolean;
  /** The answers in order, with refused re-entries turned `skipped`. */
  answers: Record<string, unknown>[];
  /** Ids of the runs inserted. */
  entered: string[];
}

/** Why the re-entry rule refuses a contact, as answered. */
export function reentryReason(journey: Journey): string {
  switch (journey.reentry.rule) {
    case "once":
      return "The contact already went through this journey, which lets a contact in once.";
    case "once_per_period":
      return `The contact entered this journey in the last ${journey.reentry.periodDays} days; it lets a contact in once per period.`;
    case "if_not_active":
      return "The contact is already in this journey; it lets a contact in again once their run is over.";
    default:
      return "The contact entered this journey twice in one request.";
  }
}

/** The condition on `r` (a run of the campaign for the contact) that refuses a new entry; null: none does. */
function refusingRunSql(journey: Journey): SQL | null {
  switch (journey.reentry.rule) {
    case "once":
      return sql`true`;
    case "once_per_period":
      return sql`r.entered_at > now() - make_interval(days => ${journey.reentry.periodDays ?? 1})`;
    case "if_not_active":
      return sql`r.status in ('active', 'waiting')`;
    default:
      return null;
  }
}

/** Marks a phone's later entries of one request refused, unless the rule is `every_time`. */
function refuseRepeats(input: EnterInput): RunEntry[] {
  if (input.ignoreReentry || input.journey.reentry.rule === "every_time") return input.entries;
  const seen = new Set<string>();
  return input.entries.map((e) => {
    if (!e.enter) return e;
    if (seen.has(e.phone)) return { ...e, enter: false, answer: { ...e.answer, status: "skipped", error: { code: REENTRY_CODE, reason: reentryReason(input.journey) } } };
    seen.add(e.phone);
    return e;
  });
}

export function exitTokensOf(journey: Journey): string[] {
  return journey.exitEvents.map(externalEventToken);
}

/** The statement behind `enterRuns`. */
export function enterRunsSql(input: EnterInput): SQL {
  const entries = refuseRepeats(input).map((e, ord) => ({ ord, id: e.id, phone: e.phone, context: e.context, answer: e.answer, enter: e.enter }));
  const refusing = input.ignoreReentry ? null : refusingRunSql(input.journey);
  const refused = refusing
    ? sql`exists (select 1 from journey_runs r where r.campaign_id = ${input.campaignId} and r.contact_id = ct.id and r.entry <> 'test' and ${refusing})`
    : sql`false`;
  const reason = reentryReason(input.journey);
  const claim = input.claim ? sql`claim as (${input.claim(sql`(select answers from answered)`)}),` : sql``;
  const claimed = input.claim ? sql`where exists (select 1 from claim)` : sql``;
  const events = input.event
    ? sql`, ${contactEventCtes({ workspaceId: input.workspaceId, token: input.event.token, contactIds: sql`select id from upserted`, reason: input.event.reason })}`
    : sql``;
  return sql`with wanted as (
        select x.ord, x.id, x.phone, x.context, x.answer, x.enter
        from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as x(ord int, id text, phone text, context jsonb, answer jsonb, enter boolean)
      ),
      decided as (
        select w.*, (w.enter and not coalesce(${refused}, false)) as enters
        from wanted w
        left join contacts ct on ct.workspace_id = ${input.workspaceId} and ct.phone_number = w.phone
      ),
      answered as (
        select coalesce(jsonb_agg(case when d.enters or not d.enter then d.answer
            else d.answer || jsonb_build_object('status', 'skipped', 'error', jsonb_build_object('code', ${REENTRY_CODE}::text, 'reason', ${reason}::text)) end
          order by d.ord), '[]'::jsonb) as answers
        from decided d
      ),
      ${claim}
      upserted as (
        insert into contacts as c (id, workspace_id, phone_number, name, attributes)
        select x.id, ${input.workspaceId}, x.phone, x.name, coalesce(x.attributes, '{}'::jsonb)
        from jsonb_to_recordset(${JSON.stringify(input.contacts)}::jsonb) as x(id text, phone text, name text, attributes jsonb)
        ${claimed}
        order by x.phone
        ${contactUpsertConflictWithRules(input.fillWhenEmpty ?? [])}
        returning c.id, c.phone_number
      ),
      entered as (
        insert into journey_runs (id, workspace_id, campaign_id, version, contact_id, phone_number, status, step_id, due_at, exit_tokens, context, entry, time_scale)
        select d.id, ${input.workspaceId}, ${input.campaignId}, ${input.version}, u.id, d.phone, 'active', ${input.journey.firstStepId}, now(),
          array(select jsonb_array_elements_text(${JSON.stringify(exitTokensOf(input.journey))}::jsonb)), d.context, ${input.entry}, ${input.timeScale ?? 1}
        from decided d join upserted u on u.phone_number = d.phone
        where d.enters
        returning id
      )${events}
      select (select answers from answered) as answers, ${input.claim ? sql`exists (select 1 from claim)` : sql`true`} as claimed,
        (select coalesce(jsonb_agg(id), '[]'::jsonb) from entered) as entered,
        ${input.event ? EXITED_IDS_SQL : sql`'[]'::jsonb`} as exited`;
}

/**
 * Upserts the contacts and enters their runs in one statement (see `enterRunsSql`). Under a rule
 * that refuses re-entry, the statement runs in a transaction holding a lock per (campaign, phone)
 * taken by an earlier statement: two requests for one contact at the same moment (a webhook
 * delivered twice) would otherwise both decide against runs that do not include the other's, and
 * both enter. Under read committed the statement's snapshot, taken after the lock, sees the run the
 * lock's last holder committed.
 */
export async function enterRuns(db: Executor, input: EnterInput): Promise<EnterResult> {
  const phones = entryLockPhones(input);
  if (phones.length === 0) return enterRunsNow(db, input);
  return db.transaction(async (tx) => {
    await lockEntries(tx, input.campaignId, phones);
    return enterRunsNow(tx, input);
  });
}

/**
 * Takes, until the transaction ends, the lock `enterRuns` takes for entering these phones into the
 * campaign's journey. A caller that locks runs before entering (an event that also ends runs) takes
 * it first and enters with `entriesLocked`: a trigger holds it while its statement ends the
 * contact's runs, so the other order could deadlock.
 */
export async function lockEntries(tx: Executor, campaignId: string, phones: readonly string[]): Promise<void> {
  await lockKeysForTransaction(tx, `journey_entry:${campaignId}`, phones);
}

/** The phones whose entry the re-entry rule decides: none when every entry is let in. */
function entryLockPhones(input: Pick<EnterInput, "ignoreReentry" | "entriesLocked" | "journey" | "entries">): string[] {
  if (input.ignoreReentry || input.entriesLocked || !refusesReentry(input.journey)) return [];
  return [...new Set(input.entries.filter((e) => e.enter).map((e) => e.phone))];
}

/** Whether the journey's rule can refuse an entry (every rule but `every_time`). */
export function refusesReentry(journey: Journey): boolean {
  return refusingRunSql(journey) !== null;
}

async function enterRunsNow(db: Executor, input: EnterInput): Promise<EnterResult> {
  const [row] = await queryRows<{ answers: Record<string, unknown>[]; claimed: boolean; entered: string[]; exited: string[] }>(db, enterRunsSql(input));
  if (input.event) await skipQueuedOfRuns(db, row!.exited, "exited", input.event.reason);
  return { claimed: Boolean(row!.claimed), answers: row!.answers, entered: row!.entered };
}
