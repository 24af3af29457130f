// Storing composed messages as `queued` (due now) together with their contacts, set-based: one
// statement for any number of messages, atomic. The dispatcher (lib/messaging) takes it from there.
// A message stored as `skipped` (the contact opted out, …) is final: it is never dispatched.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { NAME_ATTRIBUTE, type UpdateRule } from "@/lib/campaigns/schemas";
import { contactUpsertConflictWithRules } from "@/lib/contacts/service";
import { newId } from "@/lib/crypto/random";
import type { OutboundDraft } from "./compose";

export interface ContactUpsert {
  id: string;
  phone: string;
  name: string | null;
  attributes: Record<string, unknown>;
}

export interface QueuedMessage {
  id: string;
  /** The message as composed for its recipient (`composeFor`): phone, sender, template, rendering. */
  draft: Pick<OutboundDraft, "phone" | "senderId" | "template" | "renderedText" | "payload">;
  /** `skipped` with its error code and reason: recorded, never sent. Default `queued`. */
  skip?: { errorCode: string; errorReason: string } | null;
  /** The journey run and step that send it (lib/journeys); absent for a campaign's one message. */
  journeyRunId?: string | null;
  journeyStepId?: string | null;
}

export interface EnqueueInput {
  workspaceId: string;
  campaignId: string;
  apiKeyId: string | null;
  /** One per phone (see `contactUpserts`); every message's phone must be among them. */
  contacts: ContactUpsert[];
  /** Each keeps the sender it was composed for: only that sender may send it. */
  messages: QueuedMessage[];
  createdAt: Date;
  /**
   * A statement that must return a row for anything to be written (the trigger's idempotency
   * claim). It runs inside the same statement, so the claim and the writes commit together.
   */
  claim?: SQL | null;
  /** Attributes (`name` included) that only fill a contact's missing or empty value; the others replace it. */
  fillWhenEmpty?: readonly string[];
  /**
   * More CTEs of the same statement, which may read `upserted` (id, phone_number): what the contacts'
   * event changes elsewhere (lib/journeys); `select` is returned as `also` by `enqueueMessagesWith`.
   */
  also?: { ctes: SQL; select: SQL } | null;
}

/**
 * Contact rows to upsert for a set of recipients, one per phone (a batch may name a phone twice:
 * later attributes win). `name` goes to its own column, every other attribute to `attributes`.
 * An attribute whose rule is `never` is left out; a `skipped` recipient (opted out, over its
 * frequency cap) brings no value at all, so the upsert leaves its contact as it was.
 */
export function contactUpserts(
  recipients: { phone: string; attributes: Record<string, unknown>; skipped?: boolean }[],
  rules: Record<string, UpdateRule> = {},
): ContactUpsert[] {
  const byPhone = new Map<string, ContactUpsert>();
  for (const recipient of recipients) {
    const kept = recipient.skipped ? {} : Object.fromEntries(Object.entries(recipient.attributes).filter(([key]) => rules[key] !== "never"));
    const { [NAME_ATTRIBUTE]: name, ...attributes } = kept;
    const existing = byPhone.get(recipient.phone);
    const nameText = typeof name === "string" && name.trim() !== "" ? name : name === undefined || name === null ? null : String(name);
    if (existing) {
      existing.attributes = { ...existing.attributes, ...attributes };
      existing.name = nameText ?? existing.name;
    } else {
      byPhone.set(recipient.phone, { id: newId("ctc"), phone: recipient.phone, name: nameText, attributes });
    }
  }
  // A fixed order keeps concurrent upserts of overlapping batches from deadlocking.
  return [...byPhone.values()].sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
}

function messageRecord(m: QueuedMessage) {
  return {
    id: m.id,
    phone: m.draft.phone,
    sender_id: m.draft.senderId,
    template_name: m.draft.template.name,
    template_language: m.draft.template.language,
    rendered_text: m.draft.renderedText,
    payload: m.draft.payload,
    error_code: m.skip?.errorCode ?? null,
    error_reason: m.skip?.errorReason ?? null,
    journey_run_id: m.journeyRunId ?? null,
    journey_step_id: m.journeyStepId ?? null,
  };
}

/**
 * Contact upserts (attributes merged, following `fillWhenEmpty`) and `queued` (or `skipped`) message inserts in one atomic statement.
 * With a `claim`, nothing is written unless it returns a row. Returns the number of messages inserted.
 */
export async function enqueueMessages(db: Executor, input: EnqueueInput): Promise<number> {
  return (await enqueueMessagesWith(db, input)).inserted;
}

/** `enqueueMessages`, also answering the value of `input.also.select`. */
export async function enqueueMessagesWith(db: Executor, input: EnqueueInput): Promise<{ inserted: number; also: unknown }> {
  const claim = input.claim ? sql`claim as (${input.claim}),` : sql``;
  const claimed = input.claim ? sql`where exists (select 1 from claim)` : sql``;
  const [row] = await queryRows<{ inserted: number; also: unknown }>(
    db,
    sql`with ${claim}
      upserted as (
        insert into contacts as c (id, workspace_id, phone_number, name, attributes)
        select x.id, ${input.workspaceId}, x.phone, x.name, coalesce(x.attributes, '{}'::jsonb)
        from jsonb_to_recordset(${JSON.stringify(input.contacts)}::jsonb) as x(id text, phone text, name text, attributes jsonb)
        ${claimed}
        order by x.phone
        ${contactUpsertConflictWithRules(input.fillWhenEmpty ?? [])}
        returning c.id, c.phone_number
      ),
      inserted as (
        insert into messages (id, workspace_id, campaign_id, contact_id, sender_id, api_key_id, phone_number,
          template_name, template_language, rendered_text, payload, status, next_attempt_at, created_at, updated_at, error_code, error_reason,
          journey_run_id, journey_step_id)
        select m.id, ${input.workspaceId}, ${input.campaignId}, u.id, m.sender_id, ${input.apiKeyId}, m.phone,
          m.template_name, m.template_language, m.rendered_text, m.payload,
          case when m.error_code is null then 'queued' else 'skipped' end, now(),
          ${input.createdAt.toISOString()}::timestamptz, ${input.createdAt.toISOString()}::timestamptz, m.error_code, m.error_reason,
          m.journey_run_id, m.journey_step_id
        from jsonb_to_recordset(${JSON.stringify(input.messages.map(messageRecord))}::jsonb)
          as m(id text, phone text, sender_id text, template_name text, template_language text, rendered_text text, payload jsonb,
            error_code text, error_reason text, journey_run_id text, journey_step_id text)
        join upserted u on u.phone_number = m.phone
        returning 1
      )${input.also ? sql`, ${input.also.ctes}` : sql``}
      select count(*)::int as inserted, ${input.also ? input.also.select : sql`null`} as also from inserted`,
    { prepared: true },
  );
  return { inserted: Number(row?.inserted ?? 0), also: row?.also ?? null };
}
