// The launch snapshot of a bulk campaign: who receives it, frozen at launch, exactly once.
//
// Two steps, because writing a million `messages` rows (seven indexes, foreign keys, about 27 µs a
// row on 2 cores) takes far longer than deciding who receives the campaign:
// 1. `snapshotAudience` (in the launch transaction): the audience, numbered in contact order, into
//    `bulk_snapshot_chunks` rows of up to 10,000 contacts each (ids, phones and what becomes of each:
//    due, held by the daily tier, or skipped for an empty variable or missing consent). About 2 s for a million.
// 2. `writeSnapshotChunk`: one chunk's `queued` (or skipped) messages written (by the outbox,
//    `insertChunkMessages`) and the chunk deleted, in one transaction. The launch writes the first chunk itself, so an audience of up to 10,000 is
//    fully written when the launch answers; the dispatch passes write the rest right after
//    (`writeSnapshotChunksDue`, beside the sending), about 0.3 s a chunk.
// The unique index (campaign, contact) of bulk messages stays the guarantee: a chunk written twice
// (a crash between its insert and its commit rolls both back) changes nothing, and contacts already
// snapshotted are left out of a snapshot run again. Counts read pending chunks (`pendingSnapshotCounts`,
// lib/campaigns/funnel.ts)
// as queued, held or skipped, so totals never move while the messages are written.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { randomBase62 } from "@/lib/crypto/random";
import { CANCELLED_CODE, CANCELLED_REASON } from "@/lib/messaging/errors";
import { insertChunkMessages, SNAPSHOT_KIND } from "@/lib/outbox/snapshot-chunks";
import { NO_CONSENT_CODE, NO_CONSENT_REASON } from "./audience";
import { LEFT_OUT_REASON, VARIABLES_MISSING_CODE, VARIABLES_MISSING_REASON } from "./send-render";
import { HELD_UNTIL, TIER_WAIT_CODE, TIER_WAIT_REASON } from "./tier";

type SQL = ReturnType<typeof sql>;

export const SNAPSHOT_CHUNK_SIZE = 10_000;

/** What becomes of a contact of a chunk (the `kinds` column, read by the outbox when it writes the chunk's messages). */
const KIND = SNAPSHOT_KIND;

export interface SnapshotInput {
  workspaceId: string;
  campaignId: string;
  senderId: string;
  template: { name: string; language: string };
  /** `select id, …` of the audience's contacts. */
  audienceSql: SQL;
  /** True for a contact (aliased `c`, after `missingJoins`) with a variable that has no value. */
  missing: SQL;
  missingJoins: SQL;
  /** True for a contact (aliased `c`) left out for consent (`noConsentSql`): stored skipped, `no_consent`. */
  noConsent: SQL;
  /** Sendable contacts due now; the rest are held for the daily tier. Null: all due. */
  available: number | null;
  now: Date;
  chunkSize?: number;
}

/**
 * Freezes the audience into chunks (contacts already snapshotted for the campaign, as messages or
 * in pending chunks, are left out). Returns how many contacts it took and in how many chunks.
 */
export async function snapshotAudience(tx: Executor, input: SnapshotInput): Promise<{ contacts: number; chunks: number }> {
  const size = input.chunkSize ?? SNAPSHOT_CHUNK_SIZE;
  const idPrefix = `msg_${randomBase62(14)}`;
  const onPostgres = Boolean(process.env.DATABASE_URL);
  if (onPostgres) await queryRows(tx, sql`set local jit = off`);
  const [earlier] = await queryRows<{ messages: boolean; next_chunk: number | string }>(
    tx,
    sql`select exists (select 1 from messages where campaign_id = ${input.campaignId} and source = 'bulk') as messages,
      coalesce((select max(chunk) + 1 from bulk_snapshot_chunks where campaign_id = ${input.campaignId}), 0) as next_chunk`,
  );
  const firstChunk = Number(earlier?.next_chunk ?? 0);
  const rerun = Boolean(earlier?.messages) || firstChunk > 0;
  // A snapshot run again over its own rows leaves them out by hash anti-joins, never by a nested
  // loop (one over a million rows costs minutes).
  if (rerun && onPostgres) await queryRows(tx, sql`set local enable_nestloop = off`);
  const notSnapshotted = rerun
    ? sql`where not exists (select 1 from messages x where x.campaign_id = ${input.campaignId} and x.source = 'bulk' and x.contact_id = c.id)
        and not exists (select 1 from bulk_snapshot_chunks k cross join lateral unnest(k.contact_ids) as u(id)
          where k.campaign_id = ${input.campaignId} and u.id = c.id)`
    : sql``;
  const held = input.available === null ? sql`false` : sql`(not r.missing and not r.no_consent and r.position > ${input.available})`;
  const [result] = await queryRows<{ contacts: number | string; chunks: number | string }>(
    tx,
    sql`with audience as (
        select c.id as contact_id, c.phone_number, ${input.noConsent} as no_consent, (${input.missing}) and not ${input.noConsent} as missing
        from (${input.audienceSql}) a join contacts c on c.id = a.id ${input.missingJoins}
        ${notSnapshotted}
      ),
      numbered as (
        select r.contact_id, r.phone_number, row_number() over (order by r.contact_id) as n,
          ((row_number() over (order by r.contact_id) - 1) / ${size}::int)::int as chunk,
          (case when r.no_consent then ${KIND.noConsent} when r.missing then ${KIND.skipped} when ${held} then ${KIND.held} else ${KIND.due} end)::smallint as kind
        from (select r.*, ${input.available === null ? sql`0::bigint` : sql`row_number() over (partition by r.missing or r.no_consent order by r.contact_id)`} as position
          from audience r) r
      ),
      inserted as (
        insert into bulk_snapshot_chunks (campaign_id, chunk, workspace_id, sender_id, template_name, template_language, id_prefix,
          first_number, contact_ids, phone_numbers, kinds, queued, held, skipped, launched_at)
        select ${input.campaignId}, ${firstChunk}::int + chunk, ${input.workspaceId}, ${input.senderId},
          ${input.template.name}::text, ${input.template.language}::text, ${idPrefix}::text, min(n)::int,
          array_agg(contact_id order by n), array_agg(phone_number order by n), array_agg(kind order by n),
          (count(*) filter (where kind = ${KIND.due}))::int, (count(*) filter (where kind = ${KIND.held}))::int,
          (count(*) filter (where kind in (${KIND.skipped}, ${KIND.noConsent})))::int, ${input.now.toISOString()}::timestamptz
        from numbered
        group by chunk
        returning cardinality(contact_ids) as size
      )
      select coalesce(sum(size), 0)::int as contacts, count(*)::int as chunks from inserted`,
  );
  if (rerun && onPostgres) await queryRows(tx, sql`set local enable_nestloop = on`);
  return { contacts: Number(result?.contacts ?? 0), chunks: Number(result?.chunks ?? 0) };
}

/**
 * Writes the messages of one pending chunk (the campaign's lowest, or the oldest launch's when no
 * campaign is named) and deletes it, in one transaction. Rows go in in contact order with ids in that
 * order, so every index takes them in order. A contact deleted since the launch is left out; once the
 * campaign is cancelled the chunk's contacts are written as skipped (`cancelled`). Returns how many
 * messages it wrote, or null when no chunk was pending (or every pending one is being written).
 */
export async function writeSnapshotChunk(db: Executor, campaignId?: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [chunk] = await queryRows<{ campaign_id: string; chunk: number }>(
      tx,
      sql`select campaign_id, chunk from bulk_snapshot_chunks
        ${campaignId ? sql`where campaign_id = ${campaignId}` : sql``}
        order by launched_at, campaign_id, chunk limit 1 for update skip locked`,
    );
    if (!chunk) return null;
    // The campaign's row lock orders this write with a cancel: either the cancel sees these rows
    // queued and skips them, or this sees the campaign cancelled.
    const [campaign] = await queryRows<{ status: string; left_out: boolean | null }>(
      tx,
      sql`select status, (audience ->> 'excludeContactsWithEmptyVariables') = 'true' as left_out from campaigns where id = ${chunk.campaign_id} for share`,
    );
    const written = await insertChunkMessages(tx, {
      campaignId: chunk.campaign_id,
      chunk: chunk.chunk,
      cancelled: campaign?.status === "cancelled" ? { code: CANCELLED_CODE, reason: CANCELLED_REASON } : null,
      skipped: { code: VARIABLES_MISSING_CODE, reason: campaign?.left_out ? LEFT_OUT_REASON : VARIABLES_MISSING_REASON },
      noConsent: { code: NO_CONSENT_CODE, reason: NO_CONSENT_REASON },
      held: { code: TIER_WAIT_CODE, reason: TIER_WAIT_REASON, until: HELD_UNTIL },
    });
    await queryRows(tx, sql`delete from bulk_snapshot_chunks where campaign_id = ${chunk.campaign_id} and chunk = ${chunk.chunk}`);
    return written;
  });
}

/** Writes pending chunks, one after another, until none is left, the deadline passes or the signal aborts. */
export async function writeSnapshotChunksDue(db: Executor, options: { deadline: number; signal?: AbortSignal }): Promise<number> {
  let written = 0;
  while (Date.now() < options.deadline && !options.signal?.aborted) {
    const count = await writeSnapshotChunk(db);
    if (count === null) break;
    written += count;
  }
  return written;
}
