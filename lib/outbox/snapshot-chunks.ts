// The messages of one frozen bulk snapshot chunk (`bulk_snapshot_chunks`, written at launch by
// lib/bulk/snapshot.ts): one INSERT … SELECT of up to 10,000 rows, in contact order, with ids in
// that order, so every index of `messages` takes them in order. The chunk already names the sender
// and template its contacts were composed for; the text is rendered when each is sent.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";

/** What becomes of each contact of a chunk (its `kinds` column): the snapshot writes it, this reads it. */
export const SNAPSHOT_KIND = { due: 0, held: 1, skipped: 2, noConsent: 3 } as const;

/** The error code and reason a message is stored with. */
export interface StoredReason {
  code: string;
  reason: string;
}

export interface ChunkMessagesInput {
  campaignId: string;
  chunk: number;
  /** The campaign was cancelled: every contact is stored `skipped` with this reason (an empty variable or missing consent keeps its own). */
  cancelled: StoredReason | null;
  /** Contacts with a variable that has no value: stored `skipped`. */
  skipped: StoredReason;
  /** Contacts a marketing campaign leaves out for consent: stored `skipped`. */
  noConsent: StoredReason;
  /** Contacts held for the daily tier: stored `queued`, due at `until`, with this reason until then. */
  held: StoredReason & { until: Date };
}

/**
 * Inserts the chunk's messages (`queued`, held or `skipped`); a contact deleted since the launch is
 * left out, and one already stored for the campaign is left as it is (the unique index of bulk
 * messages, so a chunk written twice changes nothing). Returns how many rows it inserted. Run it in
 * the transaction that deletes the chunk.
 */
export async function insertChunkMessages(tx: Executor, input: ChunkMessagesInput): Promise<number> {
  // `due` is what is neither held nor skipped.
  const { held, skipped, noConsent } = SNAPSHOT_KIND;
  const cancelled = sql.raw(input.cancelled ? "true" : "false");
  const code = sql`case when u.kind = ${skipped} then ${input.skipped.code}::text when u.kind = ${noConsent} then ${input.noConsent.code}::text when ${cancelled} then ${input.cancelled?.code ?? null}::text
    when u.kind = ${held} then ${input.held.code}::text end`;
  const reason = sql`case when u.kind = ${skipped} then ${input.skipped.reason}::text when u.kind = ${noConsent} then ${input.noConsent.reason}::text when ${cancelled} then ${input.cancelled?.reason ?? null}::text
    when u.kind = ${held} then ${input.held.reason}::text end`;
  const [written] = await queryRows<{ written: number | string }>(
    tx,
    sql`with written as (
        insert into messages (id, workspace_id, campaign_id, contact_id, sender_id, phone_number, template_name, template_language,
          rendered_text, payload, status, source, error_code, error_reason, next_attempt_at, created_at, updated_at)
        select k.id_prefix || lpad(to_hex(k.first_number + u.ord - 1), 8, '0'), k.workspace_id, k.campaign_id, c.id, k.sender_id, u.phone_number,
          k.template_name, k.template_language, '', '{}'::jsonb,
          case when u.kind in (${skipped}, ${noConsent}) or ${cancelled} then 'skipped' else 'queued' end, 'bulk', ${code}, ${reason},
          case when u.kind = ${held} and not ${cancelled} then ${input.held.until.toISOString()}::timestamptz else k.launched_at end,
          k.launched_at, k.launched_at
        from bulk_snapshot_chunks k
        cross join lateral unnest(k.contact_ids, k.phone_numbers, k.kinds) with ordinality as u(contact_id, phone_number, kind, ord)
        join contacts c on c.id = u.contact_id
        where k.campaign_id = ${input.campaignId} and k.chunk = ${input.chunk}
        order by u.ord
        on conflict (campaign_id, contact_id) where source = 'bulk' do nothing
        returning 1
      )
      select count(*)::int as written from written`,
  );
  return Number(written?.written ?? 0);
}
