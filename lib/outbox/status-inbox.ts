// Delivery statuses are never lost: a webhook's statuses are applied in one set-based statement
// (statuses.ts, `recordStatusReports`), and those whose provider message id is not stored yet
// (Meta's `sent` can arrive before the send's result is written) are kept in `message_status_inbox`
// until the message has that id (column `wamid`); then they are applied by the same statement.
//
// The dispatcher calls `applyInboxedStatuses(db, { providerMessageIds })` after recording each
// batch of send results, and `applyInboxedStatuses(db)` once per pass: if a process dies between
// writing a provider message id and applying its held statuses, the next pass of any process
// applies them. Held statuses older than 7 days are deleted, each logged once.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { recordStatusReports, type AddressedStatusReport, type ReportedStatus } from "./statuses";

export const STATUS_INBOX_RETENTION_DAYS = 7;
/** Statuses held longer than this are looked at only by the full sweep (see `applyInboxedStatuses`). */
const RECENT_WINDOW_MS = 15 * 60_000;
const FULL_SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 5000;

/** A held status as its columns (`wamid` is the provider message id). */
interface InboxRow {
  wamid: string;
  workspace_id: string;
  status: ReportedStatus;
  occurred_at: string | Date;
  error_code: string | null;
  error_reason: string | null;
}

const toReport = (row: InboxRow): AddressedStatusReport => ({
  providerMessageId: row.wamid,
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
 * Applies held statuses whose message now has their provider message id, deletes them, and returns how many
 * moved a message. With `providerMessageIds` (just written by the dispatcher) only those are looked at.
 * Without, statuses received in the last 15 minutes are; every 10 minutes per process by `now`
 * (and on the first call after a start) all of them are, and those past 7 days are pruned.
 */
export async function applyInboxedStatuses(db: Executor, options: { providerMessageIds?: string[]; now?: Date; full?: boolean } = {}): Promise<number> {
  const now = options.now ?? new Date();
  let filter: SQL;
  let full = false;
  if (options.providerMessageIds) {
    if (options.providerMessageIds.length === 0) return 0;
    filter = sql`h.wamid in (select jsonb_array_elements_text(${JSON.stringify(options.providerMessageIds)}::jsonb))`;
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
            `[status inbox] dropped a "${row.status}" status for ${row.wamid} (workspace ${row.workspace_id}, received ${new Date(row.received_at).toISOString()}): no message of the workspace had this id after ${STATUS_INBOX_RETENTION_DAYS} days`,
        )
        .join("\n"),
    );
    if (rows.length < 1000) break;
  }
  return pruned;
}
