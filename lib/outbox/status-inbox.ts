// Delivery statuses are never lost: a webhook's statuses are applied in one set-based statement,
// and those whose wamid is not stored yet (Meta's `sent` can arrive before the send's result is
// written) are kept in `message_status_inbox` until the message has that wamid.
//
// The dispatcher calls `applyInboxedStatuses(db, { wamids })` after recording each batch of send
// results, and `applyInboxedStatuses(db)` once per pass: if a process dies between writing a wamid
// and applying its held statuses, the next pass of any process applies them. Held statuses older
// than 7 days are deleted, each logged once.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { foldStatusReports, STATUS_RANK, statusRankSql, type AddressedStatusReport, type FoldedStatusReports, type ReportedStatus } from "./status";

export const STATUS_INBOX_RETENTION_DAYS = 7;
/** Statuses held longer than this are looked at only by the full sweep (see `applyInboxedStatuses`). */
const RECENT_WINDOW_MS = 15 * 60_000;
const FULL_SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 5000;

export interface StatusBatchOutcome {
  /** Reports that moved their message to a higher status. */
  applied: number;
  /** Reports for stored messages that changed nothing: late, out of order, duplicated, or the message is final. */
  ignored: number;
  /** Reports held in the inbox because no message of the workspace has their wamid yet. */
  pending: number;
}

const rank = (status: ReportedStatus) => sql.raw(String(STATUS_RANK[status]));

function foldsJson(folds: FoldedStatusReports[]): string {
  return JSON.stringify(
    folds.map((fold) => ({
      wamid: fold.wamid,
      workspace_id: fold.workspaceId,
      top: fold.top,
      reports: fold.reports,
      sent_t: fold.sent?.toISOString() ?? null,
      failed_t: fold.failed?.toISOString() ?? null,
      error_code: fold.errorCode,
      error_reason: fold.errorReason,
      delivered_t: fold.delivered?.toISOString() ?? null,
      read_t: fold.read?.toISOString() ?? null,
    })),
  );
}

/**
 * Applies `reports` with the rule of status.ts in one statement: all reports for one message are
 * folded (status.ts, `foldStatusReports`), each stored message is locked and moved at most once,
 * and (with `holdUnmatched`, the default) reports whose wamid no message of their workspace has
 * are inserted into the inbox in the same statement.
 */
export async function recordStatusReports(db: Executor, reports: AddressedStatusReport[], options: { holdUnmatched?: boolean } = {}): Promise<StatusBatchOutcome> {
  if (reports.length === 0) return { applied: 0, ignored: 0, pending: 0 };
  const holdUnmatched = options.holdUnmatched ?? true;
  const folds = foldStatusReports(reports);
  const oldRank = statusRankSql(sql`m.status`);
  const promoted = sql`c.top in ('delivered', 'read')`;
  const [row] = await queryRows<{ matched: number; applied: number; held: number }>(
    db,
    sql`with v as (
      select * from jsonb_to_recordset(${foldsJson(folds)}::jsonb) as v(
        wamid text, workspace_id text, top text, reports int, sent_t timestamptz, failed_t timestamptz,
        error_code text, error_reason text, delivered_t timestamptz, read_t timestamptz)
    ), cur as (
      select m.id, ${oldRank} as old_rank, v.*
      from messages m join v on m.wamid = v.wamid and m.workspace_id = v.workspace_id
      order by m.id
      for update of m
    ), upd as (
      update messages m set
        status = c.top,
        sent_at = coalesce(m.sent_at,
          case when c.old_rank < ${rank("sent")} then c.sent_t end,
          case when c.old_rank < ${rank("delivered")} then c.delivered_t end,
          case when c.old_rank < ${rank("read")} then c.read_t end),
        delivered_at = coalesce(m.delivered_at,
          case when c.old_rank < ${rank("delivered")} then c.delivered_t end,
          case when c.old_rank < ${rank("read")} then c.read_t end),
        read_at = coalesce(m.read_at, case when c.old_rank < ${rank("read")} then c.read_t end),
        failed_at = case when ${promoted} then null else coalesce(m.failed_at, case when c.old_rank < ${rank("failed")} then c.failed_t end) end,
        error_code = case when ${promoted} then null when c.top = 'failed' then c.error_code else m.error_code end,
        error_reason = case when ${promoted} then null when c.top = 'failed' then c.error_reason else m.error_reason end,
        locked_until = case when c.failed_t is not null and c.old_rank < ${rank("failed")} then null else m.locked_until end,
        updated_at = now()
      from cur c
      where m.id = c.id and c.old_rank < ${statusRankSql(sql`c.top`)}
      returning m.id
    ), held as (
      insert into message_status_inbox (wamid, workspace_id, status, occurred_at, error_code, error_reason)
      select v.wamid, v.workspace_id, x.status, x.occurred_at, x.error_code, x.error_reason
      from v cross join lateral (values
        ('sent', v.sent_t, null::text, null::text),
        ('failed', v.failed_t, v.error_code, v.error_reason),
        ('delivered', v.delivered_t, null, null),
        ('read', v.read_t, null, null)
      ) as x(status, occurred_at, error_code, error_reason)
      where ${holdUnmatched ? sql`true` : sql`false`} and x.occurred_at is not null
        and not exists (select 1 from cur where cur.wamid = v.wamid and cur.workspace_id = v.workspace_id)
      on conflict do nothing
      returning 1
    )
    select
      (select coalesce(sum(reports), 0) from cur)::int as matched,
      (select coalesce(sum(
        (sent_t is not null and old_rank < ${rank("sent")})::int
        + (failed_t is not null and old_rank < ${rank("failed")})::int
        + (delivered_t is not null and old_rank < ${rank("delivered")})::int
        + (read_t is not null and old_rank < ${rank("read")})::int), 0) from cur)::int as applied,
      (select count(*) from held)::int as held,
      (select count(*) from upd)::int as updated`,
    { prepared: true },
  );
  const matched = Number(row?.matched ?? 0);
  const applied = Number(row?.applied ?? 0);
  return { applied, ignored: matched - applied, pending: holdUnmatched ? reports.length - matched : 0 };
}

interface InboxRow {
  wamid: string;
  workspace_id: string;
  status: ReportedStatus;
  occurred_at: string | Date;
  error_code: string | null;
  error_reason: string | null;
}

const toReport = (row: InboxRow): AddressedStatusReport => ({
  wamid: row.wamid,
  workspaceId: row.workspace_id,
  report: { status: row.status, at: new Date(row.occurred_at), errorCode: row.error_code, errorReason: row.error_reason },
});

/**
 * Takes (deletes) up to SWEEP_BATCH held statuses whose message now exists and applies them, in
 * one transaction: a crash in between leaves them held. Rows another process is taking are skipped.
 */
async function applyMatchedBatch(db: Executor, filter: SQL): Promise<{ taken: number; applied: number }> {
  return db.transaction(async (tx) => {
    const rows = await queryRows<InboxRow>(
      tx,
      sql`delete from message_status_inbox i
        where (i.wamid, i.workspace_id, i.status) in (
          select h.wamid, h.workspace_id, h.status
          from message_status_inbox h join messages m on m.wamid = h.wamid and m.workspace_id = h.workspace_id
          where ${filter}
          limit ${SWEEP_BATCH}
          for update of h skip locked)
        returning i.wamid, i.workspace_id, i.status, i.occurred_at, i.error_code, i.error_reason`,
    );
    if (rows.length === 0) return { taken: 0, applied: 0 };
    const outcome = await recordStatusReports(tx, rows.map(toReport), { holdUnmatched: false });
    return { taken: rows.length, applied: outcome.applied };
  });
}

const sweepState = ((globalThis as { __sendstreamStatusInbox?: { lastFullSweepAt: number } }).__sendstreamStatusInbox ??= { lastFullSweepAt: 0 });

/**
 * Applies held statuses whose message now has their wamid, deletes them, and returns how many
 * moved a message. With `wamids` (just written by the dispatcher) only those are looked at.
 * Without, statuses received in the last 15 minutes are; every 10 minutes per process by `now`
 * (and on the first call after a start) all of them are, and those past 7 days are pruned.
 */
export async function applyInboxedStatuses(db: Executor, options: { wamids?: string[]; now?: Date; full?: boolean } = {}): Promise<number> {
  const now = options.now ?? new Date();
  let filter: SQL;
  let full = false;
  if (options.wamids) {
    if (options.wamids.length === 0) return 0;
    filter = sql`h.wamid in (select jsonb_array_elements_text(${JSON.stringify(options.wamids)}::jsonb))`;
  } else {
    full = options.full ?? now.getTime() - sweepState.lastFullSweepAt >= FULL_SWEEP_EVERY_MS;
    // received_at is the database's clock, so the window is too (a caller's clock may be simulated).
    filter = full ? sql`true` : sql`h.received_at >= now() - make_interval(secs => ${RECENT_WINDOW_MS / 1000})`;
  }
  let applied = 0;
  for (;;) {
    const batch = await applyMatchedBatch(db, filter);
    applied += batch.applied;
    if (batch.taken < SWEEP_BATCH) break;
  }
  if (full) {
    await pruneStatusInbox(db);
    sweepState.lastFullSweepAt = now.getTime();
  }
  return applied;
}

/** Deletes held statuses received more than 7 days ago (database clock), logging each one once; returns how many. */
export async function pruneStatusInbox(db: Executor): Promise<number> {
  let pruned = 0;
  for (;;) {
    const rows = await queryRows<InboxRow & { received_at: string | Date }>(
      db,
      sql`delete from message_status_inbox i
        where (i.wamid, i.workspace_id, i.status) in (
          select wamid, workspace_id, status from message_status_inbox
          where received_at < now() - make_interval(days => ${STATUS_INBOX_RETENTION_DAYS})
          limit 1000
          for update skip locked)
        returning i.wamid, i.workspace_id, i.status, i.occurred_at, i.error_code, i.error_reason, i.received_at`,
    );
    if (rows.length === 0) break;
    pruned += rows.length;
    console.warn(
      rows
        .map(
          (row) =>
            `[status inbox] dropped a "${row.status}" status for ${row.wamid} (workspace ${row.workspace_id}, received ${new Date(row.received_at).toISOString()}): no message of the workspace had this wamid after ${STATUS_INBOX_RETENTION_DAYS} days`,
        )
        .join("\n"),
    );
    if (rows.length < 1000) break;
  }
  return pruned;
}
