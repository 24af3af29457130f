// Delivery statuses, applied in one place: the rule for how a message's status may change after it
// was sent, and the one statement that applies it, for every source of statuses: webhook reports
// (`recordStatusReports`), the held status inbox (status-inbox.ts, through the same statement) and
// simulated deliveries (`applyDerivedStatuses`, the sandbox).
//
// Statuses are ranked; an update is applied only when it moves a message to a higher rank, so
// webhooks that arrive late, out of order or more than once change nothing:
//
//   queued < sending < sent < failed < delivered < read < skipped
//
// `skipped` (a send deliberately not made: the contact opted out, …) is final: it ranks above
// everything, so no report moves a skipped message (it has no provider message id anyway). It is
// never reported.
//
// `failed` ranks above `sent`: a message Meta accepted (sent) can still fail, and a late `sent`
// must not hide that failure. `failed` ranks below `delivered` and `read`: those are proof that the
// message reached the phone, so a `failed` arriving after them is stale and ignored, while a
// `delivered`/`read` arriving after a `failed` wins (and clears the error, see `moveSql`).
// `read` implies `delivered`: Meta may skip the delivered webhook, so `read` fills `delivered_at`.
//
// The dispatcher's own lease writes (claimed → sent, failed, retry, outcome unknown: results.ts and
// outcomes.ts in lib/messaging, fenced on the claim) are not delivery reports and do not go through
// this statement; a sent result written after its lease ran out asks the rank (`belowSql`).
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { MessageStatus } from "@/db/schema";

export const STATUS_RANK: Record<MessageStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  failed: 3,
  delivered: 4,
  read: 5,
  skipped: 6,
};

/** Statuses a delivery report (webhook or sandbox simulation) can carry. */
export const reportedStatuses = ["sent", "delivered", "read", "failed"] as const;
export type ReportedStatus = (typeof reportedStatuses)[number];

export function isReportedStatus(value: unknown): value is ReportedStatus {
  return typeof value === "string" && (reportedStatuses as readonly string[]).includes(value);
}

/** True when a message in `current` should move to `next`. */
export function canAdvance(current: MessageStatus, next: MessageStatus): boolean {
  return STATUS_RANK[next] > STATUS_RANK[current];
}

/** Every status from which `next` is an advance (for a `WHERE status IN (…)` guard). */
export function statusesBelow(next: MessageStatus): MessageStatus[] {
  return (Object.keys(STATUS_RANK) as MessageStatus[]).filter((status) => canAdvance(status, next));
}

export interface StatusReport {
  status: ReportedStatus;
  /** When the event happened (the webhook's timestamp), else when we learned of it. */
  at: Date;
  errorCode?: string | null;
  errorReason?: string | null;
}

/** A report for the message with `providerMessageId` in `workspaceId` (the workspace whose webhook secret verified it). */
export interface AddressedStatusReport {
  providerMessageId: string;
  workspaceId: string;
  report: StatusReport;
}

/**
 * Every report for one message within a batch, folded: the earliest time of each reported status
 * (and the error of the earliest `failed`), the highest status, and how many reports went in.
 * Applying a fold is applying its reports in rank order (sent, failed, delivered, read) with the
 * rule above, whatever order they came in, so a batch never depends on Meta's ordering.
 */
export interface FoldedStatusReports {
  providerMessageId: string;
  workspaceId: string;
  top: ReportedStatus;
  reports: number;
  sent: Date | null;
  failed: Date | null;
  errorCode: string | null;
  errorReason: string | null;
  delivered: Date | null;
  read: Date | null;
}

export function foldStatusReports(reports: Iterable<AddressedStatusReport>): FoldedStatusReports[] {
  const folds = new Map<string, FoldedStatusReports>();
  for (const { providerMessageId, workspaceId, report } of reports) {
    const key = `${workspaceId}\u0000${providerMessageId}`;
    let fold = folds.get(key);
    if (!fold) {
      fold = { providerMessageId, workspaceId, top: report.status, reports: 0, sent: null, failed: null, errorCode: null, errorReason: null, delivered: null, read: null };
      folds.set(key, fold);
    }
    fold.reports++;
    if (STATUS_RANK[report.status] > STATUS_RANK[fold.top]) fold.top = report.status;
    const earlier = fold[report.status] === null || report.at.getTime() < fold[report.status]!.getTime();
    if (!earlier) continue;
    fold[report.status] = report.at;
    if (report.status === "failed") {
      fold.errorCode = report.errorCode ?? null;
      fold.errorReason = report.errorReason ?? null;
    }
  }
  return [...folds.values()];
}

/** `column`'s rank as a SQL integer (see STATUS_RANK). */
export function statusRankSql(column: SQL): SQL {
  const cases = (Object.entries(STATUS_RANK) as [MessageStatus, number][]).map(([status, rank]) => sql`when ${sql.raw(`'${status}'`)} then ${sql.raw(String(rank))}`);
  return sql`(case ${column} ${sql.join(cases, sql` `)} end)`;
}

/** `column` (a message status) is below `status` in rank: a report of `status` may still move it. */
export function belowSql(column: SQL, status: MessageStatus): SQL {
  return sql`${statusRankSql(column)} < ${sql.raw(String(STATUS_RANK[status]))}`;
}

export interface StatusBatchOutcome {
  /** Reports that moved their message to a higher status. */
  applied: number;
  /** Reports for stored messages that changed nothing: late, out of order, duplicated, or the message is final. */
  ignored: number;
  /** Reports held in the inbox because no message of the workspace has their provider message id yet. */
  pending: number;
}

const rank = (status: ReportedStatus) => sql.raw(String(STATUS_RANK[status]));

/**
 * The one UPDATE that moves messages (the rule above). It reads `cur`: one row per message, locked
 * in id order, with `id`, `old_rank` (the stored status's rank), `top` (the highest status
 * reported) and the earliest time of each reported status (`sent_t`, `failed_t`, `delivered_t`,
 * `read_t`, null when not reported) with the `failed` report's `error_code` and `error_reason`.
 * Each message moves at most once, as if its reports had arrived in rank order.
 */
function moveSql(updatedAt: SQL): SQL {
  const promoted = sql`c.top in ('delivered', 'read')`;
  return sql`update messages m set
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
        updated_at = ${updatedAt}
      from cur c
      where m.id = c.id and c.old_rank < ${statusRankSql(sql`c.top`)}
      returning m.id`;
}

function foldsJson(folds: FoldedStatusReports[]): string {
  return JSON.stringify(
    folds.map((fold) => ({
      wamid: fold.providerMessageId, // the record's columns are named as the table's
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
 * Applies `reports` (webhook statuses, or held ones taken from the inbox) in one statement: all
 * reports for one message are folded (`foldStatusReports`), each stored message is locked and
 * moved at most once, and (with `holdUnmatched`, the default) reports whose provider message id no
 * message of their workspace has are inserted into the status inbox in the same statement.
 */
export async function recordStatusReports(db: Executor, reports: AddressedStatusReport[], options: { holdUnmatched?: boolean } = {}): Promise<StatusBatchOutcome> {
  if (reports.length === 0) return { applied: 0, ignored: 0, pending: 0 };
  const holdUnmatched = options.holdUnmatched ?? true;
  const folds = foldStatusReports(reports);
  const [row] = await queryRows<{ matched: number; applied: number; held: number }>(
    db,
    sql`with v as (
      select * from jsonb_to_recordset(${foldsJson(folds)}::jsonb) as v(
        wamid text, workspace_id text, top text, reports int, sent_t timestamptz, failed_t timestamptz,
        error_code text, error_reason text, delivered_t timestamptz, read_t timestamptz)
    ), cur as (
      select m.id, ${statusRankSql(sql`m.status`)} as old_rank, v.*
      from messages m join v on m.wamid = v.wamid and m.workspace_id = v.workspace_id
      order by m.id
      for update of m
    ), upd as (
      ${moveSql(sql`now()`)}
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

/**
 * Statuses derived from the stored messages themselves (the sandbox's simulated deliveries): for
 * every message `m` matching `where`, the reported status and its times as SQL over `m`.
 */
export interface DerivedStatuses {
  /** Which messages (`messages m`) have a report now. */
  where: SQL;
  /** The highest status reported for `m` (`'delivered'`, `'read'`, …). */
  status: SQL;
  sentAt?: SQL;
  deliveredAt?: SQL;
  readAt?: SQL;
}

/** Applies derived statuses with the rule above, in one statement; returns how many messages moved. */
export async function applyDerivedStatuses(db: Executor, derived: DerivedStatuses, options: { at: Date }): Promise<number> {
  const [row] = await queryRows<{ moved: number }>(
    db,
    sql`with cur as (
      select m.id, ${statusRankSql(sql`m.status`)} as old_rank, (${derived.status})::text as top,
        (${derived.sentAt ?? sql`null`})::timestamptz as sent_t, null::timestamptz as failed_t, null::text as error_code, null::text as error_reason,
        (${derived.deliveredAt ?? sql`null`})::timestamptz as delivered_t, (${derived.readAt ?? sql`null`})::timestamptz as read_t
      from messages m
      where ${derived.where}
      order by m.id
      for update of m
    ), upd as (
      ${moveSql(sql`${options.at.toISOString()}::timestamptz`)}
    )
    select count(*)::int as moved from upd`,
  );
  return Number(row?.moved ?? 0);
}
