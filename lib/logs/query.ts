// The one query module for campaign logs: filters → where clause, keyset pages, status counts and
// the export batches. The logs pages, the JSON lists and the CSV export all read through here.
import { and, eq, gte, inArray, like, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, encodeCursor, keysetCondition, type CursorDirection } from "@/db/cursor";
import { messages, type MessageStatus } from "@/db/schema";
import { toPublicMessage, type PublicMessage, type PublicMessageRow } from "@/lib/messaging/public-message";
import type { LogFilters, LogListParams } from "./filters";
import { countFunnel, funnelTotal } from "@/lib/campaigns/funnel";
import { storedStatuses, type StatusCounts } from "./status";

/** Whose messages: always one workspace, optionally one of its campaigns. */
export interface LogScope {
  workspaceId: string;
  campaignId?: string;
}

/** A message as logs show it and the JSON lists return it: the same object as `GET /api/v1/messages/{id}`. */
export type LogMessage = PublicMessage;

export interface LogPage {
  data: LogMessage[];
  /** Reads the next (older) page; null when this page reaches the oldest matching message. */
  nextCursor: string | null;
  /**
   * Reads messages newer than this page (the previous page, or new arrivals when polling the
   * first page). Null only when nothing matched and no cursor was given.
   */
  prevCursor: string | null;
  /** Whether messages newer than this page are known to exist right now. */
  hasNewer: boolean;
}

/** `created_at` with microseconds in UTC: exact enough to resume a keyset scan. */
const cursorPosition = cursorTimestamp(messages.createdAt);

export function logWhere(scope: LogScope, filters: LogFilters): SQL {
  const conditions: SQL[] = [eq(messages.workspaceId, scope.workspaceId)];
  if (scope.campaignId) conditions.push(eq(messages.campaignId, scope.campaignId));
  if (filters.status?.length) conditions.push(inArray(messages.status, filters.status.flatMap(storedStatuses)));
  // Digits only (the schema strips everything else), so there are no LIKE wildcards to escape.
  if (filters.phone) conditions.push(like(messages.phoneNumber, `%${filters.phone}%`));
  if (filters.from) conditions.push(gte(messages.createdAt, filters.from));
  if (filters.to) conditions.push(lt(messages.createdAt, filters.to));
  return and(...conditions)!;
}

// Spelled out to match the indexes (`created_at DESC NULLS LAST, id DESC NULLS LAST`): a bare
// `desc` means NULLS FIRST, which Postgres cannot read from those indexes in either direction and
// answers with a full sort. Both columns are NOT NULL, so the NULLS clause changes no result.
const newestFirst = [sql`${messages.createdAt} desc nulls last`, sql`${messages.id} desc nulls last`];
const oldestFirst = [sql`${messages.createdAt} asc nulls first`, sql`${messages.id} asc nulls first`];

const listColumns = {
  id: messages.id,
  campaignId: messages.campaignId,
  phoneNumber: messages.phoneNumber,
  templateName: messages.templateName,
  templateLanguage: messages.templateLanguage,
  renderedText: messages.renderedText,
  status: messages.status,
  errorCode: messages.errorCode,
  errorReason: messages.errorReason,
  wamid: messages.wamid,
  attempts: messages.attempts,
  nextAttemptAt: messages.nextAttemptAt,
  source: messages.source,
  createdAt: messages.createdAt,
  updatedAt: messages.updatedAt,
  sentAt: messages.sentAt,
  deliveredAt: messages.deliveredAt,
  readAt: messages.readAt,
  failedAt: messages.failedAt,
  position: cursorPosition,
};

interface ListRow extends PublicMessageRow {
  position: string;
}

const cursorFor = (row: ListRow, direction: CursorDirection) =>
  encodeCursor({ createdAt: row.position, id: row.id, direction });

/**
 * One page, newest first. Without a cursor: the newest messages. With an `older` cursor: the page
 * after it; with a `newer` cursor: the messages just newer than it (oldest of them first read,
 * returned newest first), which is both the previous page and what a poller has not seen yet.
 */
export async function listLogMessages(db: Executor, scope: LogScope, params: LogListParams): Promise<LogPage> {
  const { cursor, limit } = params;
  const where = cursor ? and(logWhere(scope, params), keysetCondition(messages, cursor)) : logWhere(scope, params);
  const readingNewer = cursor?.direction === "newer";
  const rows = (await db
    .select(listColumns)
    .from(messages)
    .where(where)
    .orderBy(...(readingNewer ? oldestFirst : newestFirst))
    .limit(limit + 1)) as ListRow[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (readingNewer) page.reverse();
  const newest = page[0];
  const oldest = page.at(-1);

  const hasOlder = readingNewer ? true : more;
  const hasNewer = readingNewer ? more : cursor !== undefined;
  let prevCursor: string | null = null;
  if (newest) prevCursor = cursorFor(newest, "newer");
  else if (cursor) prevCursor = encodeCursor({ ...cursor, direction: "newer" });
  return {
    data: page.map(toPublicMessage),
    nextCursor: oldest && hasOlder ? cursorFor(oldest, "older") : null,
    prevCursor,
    hasNewer,
  };
}

/**
 * The campaign funnel (lib/campaigns/funnel.ts) of the messages the scope and filters select,
 * ignoring the status filter itself: the same numbers as the campaigns list and the campaign page,
 * so `sent` includes delivered and read messages and `delivered` includes read ones. Test sends are
 * listed in the logs but never counted; `tests` says how many the filters select.
 */
export async function countLogStatuses(db: Executor, scope: LogScope, filters: LogFilters): Promise<StatusCounts> {
  const where = logWhere(scope, { ...filters, status: undefined });
  const [funnel, [tests]] = await Promise.all([
    countFunnel(db, { workspaceId: scope.workspaceId, where }),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(where, eq(messages.source, "test"))),
  ]);
  return { ...funnel, total: funnelTotal(funnel), tests: Number(tests?.count ?? 0) };
}

/** ISO 8601 UTC with milliseconds, formatted by the database so the export parses no dates. */
const isoUtc = (column: typeof messages.createdAt | typeof messages.sentAt) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const exportColumns = {
  createdAt: isoUtc(messages.createdAt),
  id: messages.id,
  phoneNumber: messages.phoneNumber,
  templateName: messages.templateName,
  templateLanguage: messages.templateLanguage,
  renderedText: messages.renderedText,
  status: messages.status,
  errorCode: messages.errorCode,
  errorReason: messages.errorReason,
  sentAt: isoUtc(messages.sentAt),
  deliveredAt: isoUtc(messages.deliveredAt),
  readAt: isoUtc(messages.readAt),
  position: cursorPosition,
};

/** One exported message; timestamps are already ISO 8601 UTC text. */
export interface ExportRow {
  createdAt: string;
  id: string;
  phoneNumber: string;
  templateName: string;
  templateLanguage: string;
  renderedText: string;
  status: MessageStatus;
  errorCode: string | null;
  errorReason: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  position: string;
}

/** One keyset batch of the export, newest first (a query builder: awaitable, and explainable in tests). */
export function exportBatchQuery(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  after: { createdAt: string; id: string } | undefined,
  size: number,
) {
  const where = after
    ? and(logWhere(scope, filters), keysetCondition(messages, { ...after, direction: "older" }))
    : logWhere(scope, filters);
  return db
    .select(exportColumns)
    .from(messages)
    .where(where)
    .orderBy(...newestFirst)
    .limit(size);
}

export async function fetchExportBatch(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  after: { createdAt: string; id: string } | undefined,
  size: number,
): Promise<ExportRow[]> {
  return (await exportBatchQuery(db, scope, filters, after, size)) as ExportRow[];
}

export const EXPORT_BATCH_SIZE = 10_000;

/**
 * Every matching message, newest first, in keyset batches. The next batch is requested while the
 * caller writes the current one; stopping the iteration (`return()`) issues no further query.
 */
export async function* exportBatches(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<ExportRow[], void, undefined> {
  let pending = fetchExportBatch(db, scope, filters, undefined, batchSize);
  for (;;) {
    const batch = await pending;
    const last = batch.at(-1);
    const full = batch.length === batchSize;
    if (last && full) {
      pending = fetchExportBatch(db, scope, filters, { createdAt: last.position, id: last.id }, batchSize);
      // Handled when awaited; this keeps an abandoned prefetch from becoming an unhandled rejection.
      pending.catch(() => {});
    }
    if (batch.length) yield batch;
    if (!full) return;
  }
}
