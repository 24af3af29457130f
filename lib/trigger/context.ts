// Round trip 2 of a trigger request: everything the request needs (campaign, template, sender,
// stored contacts with their opt-outs, a stored idempotent response), and the rate-limit leases the
// process needs (./rate-limit.ts), in one statement. A frequency cap's count is not here: it is taken
// under a lock, in the transaction that stores the messages (lib/campaigns/frequency-cap.ts).
// Without a lease to claim it only reads: no commit to flush.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import type { OptOutMethod } from "@/db/schema";
import { queryRows } from "@/db/rows";
import type { CampaignStatus } from "@/lib/campaigns/schemas";
import type { ParameterFormat } from "@/lib/templates";
import { storedResponseSql, type IdempotencyKey } from "./idempotency";
import { campaignBucket, leaseCountersSql, leaseSizeSql, type LeaseRow } from "./rate-limit";

export interface TriggerContextRow {
  /** The leases claimed (none when the process held counts for every bucket). */
  leases: LeaseRow[];
  campaign: {
    id: string;
    kind: "trigger" | "bulk";
    status: CampaignStatus;
    version: number;
    /** The stored JSON as text: parsed only when this campaign version is not compiled yet. */
    trigger_config: string;
    message_config: string;
    rate_limit_per_minute: number;
    respect_opt_out: boolean;
    /** `send_policy -> 'frequencyCap'`: null when the campaign has none. */
    frequency_cap: unknown;
    /** A journey campaign (lib/journeys): its runs send, the trigger enters them. */
    has_journey: boolean;
    /** The journey version new runs enter. */
    journey_version: number;
  } | null;
  template: { name: string; language: string; status: string; statusReason: string | null; parameterFormat: ParameterFormat; components: unknown[] } | null;
  sender: { id: string } | null;
  contacts: {
    phone: string;
    name: string | null;
    attributes: Record<string, unknown> | null;
    opted_out_at: string | null;
    opt_out_method: OptOutMethod | null;
    opt_out_detail: string | null;
  }[];
  stored: { request_hash: string; response_status: number; response_body: unknown } | null;
  /** The workspace has journeys: an accepted trigger is an event for its contacts' runs (exits, waits, goals). */
  has_journeys: boolean;
}

export interface TriggerContextInput {
  workspaceId: string;
  campaignId: string;
  /** Claim a lease of the key's bucket (`take` requests), or not. */
  keyLease: { bucket: string; take: number } | null;
  /** Claim a lease of the campaign's bucket (sized by the campaign's limit), or not. */
  campaignLease: boolean;
  phones: string[];
  idempotencyKey: IdempotencyKey | null;
}

/** Round trip 2: everything the request needs and the leases to claim, in one statement. */
export async function loadTriggerContext(db: Executor, input: TriggerContextInput): Promise<TriggerContextRow> {
  const [row] = await queryRows<TriggerContextRow>(db, triggerContextSql(input), { prepared: true });
  return row!;
}

/** The statement behind `loadTriggerContext` (its plan is checked by the tests). */
export function triggerContextSql(input: TriggerContextInput): SQL {
  const wanted = [
    ...(input.keyLease ? [sql`select ${input.keyLease.bucket}::text as bucket, ${input.keyLease.take}::int as take`] : []),
    ...(input.campaignLease ? [sql`select ${campaignBucket("")}::text || cmp.id as bucket, ${leaseSizeSql(sql`cmp.rate_limit_per_minute`)} as take from cmp`] : []),
  ];
  const leases = wanted.length > 0
    ? {
        ctes: sql`wanted as (${sql.join(wanted, sql` union all `)}),
      rl as (${leaseCountersSql(sql`select * from wanted`)}),`,
        select: sql`(select coalesce(jsonb_agg(jsonb_build_object('bucket', rl.bucket, 'count', rl.count, 'take', w.take, 'reset_ms', rl.reset_ms)), '[]'::jsonb)
           from rl join wanted w on w.bucket = rl.bucket)`,
      }
    : { ctes: sql``, select: sql`'[]'::jsonb` };
  const stored = input.idempotencyKey
    ? sql`(select to_jsonb(s) from (${storedResponseSql(input.campaignId, input.idempotencyKey)}) s)`
    : sql`null::jsonb`;
  return sql`with cmp as (
        select c.id, c.kind, c.status, c.version, c.sender_id, c.trigger_config::text as trigger_config, c.message_config::text as message_config,
               c.rate_limit_per_minute, c.respect_opt_out, c.template_id, c.send_policy -> 'frequencyCap' as frequency_cap,
               c.journey is not null as has_journey, c.journey_version
        from campaigns c where c.id = ${input.campaignId} and c.workspace_id = ${input.workspaceId}
      ),
      ${leases.ctes}
      -- One probe of the (workspace, phone) index per requested phone: with a plain join or IN the
      -- planner reads every contact of the workspace and matches the phones afterwards.
      known as (
        select ct.* from (select distinct jsonb_array_elements_text(${JSON.stringify(input.phones)}::jsonb) as phone) p
        cross join lateral (
          select c.id, c.phone_number, c.name, c.attributes, c.opted_out_at, c.opt_out_method, c.opt_out_detail
          from contacts c where c.workspace_id = ${input.workspaceId} and c.phone_number = p.phone
          limit 1
        ) ct
      )
      select
        ${leases.select} as leases,
        (select to_jsonb(cmp) from cmp) as campaign,
        (select jsonb_build_object('name', t.name, 'language', t.language, 'status', t.status, 'statusReason', t.status_reason,
                  'parameterFormat', t.parameter_format, 'components', t.components)
           from templates t join cmp on t.id = cmp.template_id where t.workspace_id = ${input.workspaceId}) as template,
        -- The campaign's sender (the workspace's default for a campaign stored before campaigns named one).
        (select jsonb_build_object('id', s.id) from senders s
           where s.workspace_id = ${input.workspaceId}
             and (s.id = (select cmp.sender_id from cmp) or (select cmp.sender_id from cmp) is null)
           order by s.is_default desc, s.created_at limit 1) as sender,
        (select coalesce(jsonb_agg(jsonb_build_object('phone', ct.phone_number, 'name', ct.name, 'attributes', ct.attributes,
                  'opted_out_at', ct.opted_out_at, 'opt_out_method', ct.opt_out_method, 'opt_out_detail', ct.opt_out_detail)), '[]'::jsonb)
           from known ct) as contacts,
        ${stored} as stored,
        exists (select 1 from campaigns j where j.workspace_id = ${input.workspaceId} and j.journey_version > 0) as has_journeys`;
}
