// The one query module for campaign logs: filters → where clause, keyset pages, status counts and
// the export batches. The logs pages, the JSON lists and the CSV export all read through here.
import { and, eq, gte, inArray, like, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, encodeCursor, keysetCondition, type CursorDirection } from "@/db/cursor";
import { messages } from "@/db/schema";
import { toPublicMessage, type PublicMessage, type PublicMessageRow } from "@/lib/messaging/public-message";
import type { LogFilters, LogListParams } from "./filters";
import { countFunnel, funnelTotal } from "@/lib/campaigns/funnel";
import { storedStatuses, type StatusCounts } from "@/lib/statuses/messages";

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
  providerMessageId: messages.providerMessageId,
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
    // Unfiltered, the scope's funnel also counts bulk contacts whose queued messages are still being written.
    countFunnel(
      db,
      filters.phone || filters.from || filters.to
        ? { workspaceId: scope.workspaceId, where }
        : { workspaceId: scope.workspaceId, campaignIds: scope.campaignId ? [scope.campaignId] : undefined },
    ),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(where, eq(messages.source, "test"))),
  ]);
  return { ...funnel, total: funnelTotal(funnel), tests: Number(tests?.count ?? 0) };
}
