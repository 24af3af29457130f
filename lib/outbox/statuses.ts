// The one rule for how a message's delivery status may change.
//
// Statuses are ranked; an update is applied only when it moves a message to a higher rank, so
// webhooks that arrive late, out of order or more than once change nothing:
//
//   queued < sending < sent < failed < delivered < read < skipped
//
// `skipped` (a send deliberately not made: the contact opted out, …) is final: it ranks above
// everything, so no report moves a skipped message (it has no wamid anyway). It is never reported.
//
// `failed` ranks above `sent`: a message Meta accepted (sent) can still fail, and a late `sent`
// must not hide that failure. `failed` ranks below `delivered` and `read`: those are proof that the
// message reached the phone, so a `failed` arriving after them is stale and ignored, while a
// `delivered`/`read` arriving after a `failed` wins (and clears the error, see `reportUpdate`).
// `read` implies `delivered`: Meta may skip the delivered webhook, so `read` fills `delivered_at`.
//
// The dispatcher's own retry bookkeeping (sending → queued while waiting for a retry) is not a
// delivery status change and does not go through this rule.
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { messages, type MessageStatus } from "@/db/schema";

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

/**
 * The column changes for `report`, as a drizzle `set` object. Timestamps already set are kept (the
 * first report of each event wins). Pair it with a `status IN statusesBelow(report.status)` guard.
 */
export function reportUpdate(report: StatusReport) {
  const at = report.at;
  // ISO string, not a Date: postgres.js does not serialise a Date inside sql``.
  const keep = (column: AnyPgColumn) => sql`coalesce(${column}, ${at.toISOString()}::timestamptz)`;
  const base = { status: report.status, updatedAt: new Date() };
  switch (report.status) {
    case "sent":
      return { ...base, sentAt: keep(messages.sentAt) };
    case "failed":
      return {
        ...base,
        failedAt: keep(messages.failedAt),
        errorCode: report.errorCode ?? null,
        errorReason: report.errorReason ?? null,
        lockedUntil: null,
      };
    case "delivered":
    case "read":
      return {
        ...base,
        sentAt: keep(messages.sentAt),
        deliveredAt: keep(messages.deliveredAt),
        ...(report.status === "read" ? { readAt: keep(messages.readAt) } : {}),
        // Reached the phone: an earlier, out-of-order failure no longer describes this message.
        failedAt: null,
        errorCode: null,
        errorReason: null,
      };
  }
}

/** A report for the message with `wamid` in `workspaceId` (the workspace whose webhook secret verified it). */
export interface AddressedStatusReport {
  wamid: string;
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
  wamid: string;
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
  for (const { wamid, workspaceId, report } of reports) {
    const key = `${workspaceId}\u0000${wamid}`;
    let fold = folds.get(key);
    if (!fold) {
      fold = { wamid, workspaceId, top: report.status, reports: 0, sent: null, failed: null, errorCode: null, errorReason: null, delivered: null, read: null };
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
