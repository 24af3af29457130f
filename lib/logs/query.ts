// The one query module for campaign logs: filters → where clause, keyset pages, status counts and
// the export batches. The logs pages, the JSON lists and the CSV export all read through here.
import { and, eq, gte, inArray, isNotNull, isNull, like, lt, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, encodeCursor, keysetCondition, type CursorDirection } from "@/db/cursor";
import { inboundMessages, messages } from "@/db/schema";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { toPublicInboundMessage, type PublicInboundMessage, type PublicInboundMessageRow } from "@/lib/inbound/public";
import { toPublicMessage, type PublicMessage, type PublicMessageRow } from "@/lib/messaging/public-message";
import type { LogFilters, LogListParams } from "./filters";
import { countFunnel, funnelTotal } from "@/lib/campaigns/funnel";
import { storedStatuses, type StatusCounts } from "@/lib/statuses/messages";

/** Whose messages: always one workspace, optionally one of its campaigns. */
export interface LogScope {
  workspaceId: string;
  campaignId?: string;
}

/**
 * A message as logs show it and the JSON lists return it: a message sent (the same object as
 * `GET /api/v1/messages/{id}`), or a reply the contact sent to one of the campaign's messages.
 */
export type LogMessage = PublicMessage | PublicInboundMessage;

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

/**
 * The phone search: the digits anywhere in the number. Digits only (the filter schema strips everything
 * else), so there are no LIKE wildcards to escape. A plain `like` on the column, the shape the
 * messages' trigram index (`messages_phone_trgm_idx`) serves.
 */
export function phoneContains(column: AnyPgColumn, digits: string): SQL {
  return like(column, `%${digits}%`);
}

export function logWhere(scope: LogScope, filters: LogFilters): SQL {
  const conditions: SQL[] = [eq(messages.workspaceId, scope.workspaceId)];
  if (scope.campaignId) conditions.push(eq(messages.campaignId, scope.campaignId));
  if (filters.status?.length) conditions.push(inArray(messages.status, filters.status.flatMap(storedStatuses)));
  if (filters.phone) conditions.push(phoneContains(messages.phoneNumber, filters.phone));
  if (filters.from) conditions.push(gte(messages.createdAt, filters.from));
  if (filters.to) conditions.push(lt(messages.createdAt, filters.to));
  if (filters.excludeTests) conditions.push(ne(messages.source, "test"));
  if (filters.replied !== undefined) conditions.push(filters.replied ? isNotNull(messages.repliedAt) : isNull(messages.repliedAt));
  if (filters.step) conditions.push(eq(messages.journeyStepId, filters.step));
  return and(...conditions)!;
}

/** Sent messages are listed unless the filters ask for replies only. */
export const listsOutbound = (filters: LogFilters) => filters.direction !== "inbound";

/**
 * Replies are listed in a campaign's logs (they are linked to the campaign message they answer),
 * unless the filters ask for sent messages only, for a delivery status or for whether a message
 * was replied to, which replies have not.
 */
export const listsInbound = (scope: LogScope, filters: LogFilters) =>
  Boolean(scope.campaignId) && filters.direction !== "outbound" && !filters.status?.length && filters.replied === undefined && !filters.step;

/** The replies a campaign's logs list: the same scope, phone and date filters as `logWhere`. */
export function inboundLogWhere(scope: LogScope, filters: LogFilters): SQL {
  const conditions: SQL[] = [eq(inboundMessages.workspaceId, scope.workspaceId)];
  if (scope.campaignId) conditions.push(eq(inboundMessages.campaignId, scope.campaignId));
  if (filters.phone) conditions.push(phoneContains(inboundMessages.phoneNumber, filters.phone));
  if (filters.from) conditions.push(gte(inboundMessages.createdAt, filters.from));
  if (filters.to) conditions.push(lt(inboundMessages.createdAt, filters.to));
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
  repliedAt: messages.repliedAt,
  journeyRunId: messages.journeyRunId,
  journeyStepId: messages.journeyStepId,
  position: cursorPosition,
};

interface ListRow extends PublicMessageRow {
  position: string;
}

interface InboundListRow extends PublicInboundMessageRow {
  position: string;
}

const inboundListColumns = {
  id: inboundMessages.id,
  kind: inboundMessages.kind,
  phoneNumber: inboundMessages.phoneNumber,
  contactId: inboundMessages.contactId,
  senderId: inboundMessages.senderId,
  text: inboundMessages.text,
  payload: inboundMessages.payload,
  media: inboundMessages.media,
  location: inboundMessages.location,
  reaction: inboundMessages.reaction,
  providerMessageId: inboundMessages.providerMessageId,
  replyToMessageId: inboundMessages.replyToMessageId,
  campaignId: inboundMessages.campaignId,
  receivedAt: inboundMessages.receivedAt,
  createdAt: inboundMessages.createdAt,
  position: cursorTimestamp(inboundMessages.createdAt),
};

type Positioned = { position: string; id: string };

const cursorFor = (row: Positioned, direction: CursorDirection) =>
  encodeCursor({ createdAt: row.position, id: row.id, direction });

/**
 * Two lists each in the database's keyset order, merged into that order. Only the heads of the two
 * lists are compared: rows of one table keep the order the database gave them, and rows of the two
 * tables at the same microsecond differ in their id's first letter (`inm_` < `msg_` in any collation).
 */
function mergeKeyset<A extends Positioned, B extends Positioned>(a: A[], b: B[], newestFirst: boolean, take: number): (A | B)[] {
  const out: (A | B)[] = [];
  let i = 0;
  let j = 0;
  while (out.length < take && (i < a.length || j < b.length)) {
    if (j >= b.length) out.push(a[i++]!);
    else if (i >= a.length) out.push(b[j++]!);
    else {
      const x = a[i]!;
      const y = b[j]!;
      const xFirst = x.position !== y.position ? x.position > y.position === newestFirst : x.id > y.id === newestFirst;
      out.push(xFirst ? a[i++]! : b[j++]!);
    }
  }
  return out;
}

/**
 * One page, newest first. Without a cursor: the newest messages. With an `older` cursor: the page
 * after it; with a `newer` cursor: the messages just newer than it (oldest of them first read,
 * returned newest first), which is both the previous page and what a poller has not seen yet.
 */
export async function listLogMessages(db: Executor, scope: LogScope, params: LogListParams): Promise<LogPage> {
  const { cursor, limit } = params;
  const where = cursor ? and(logWhere(scope, params), keysetCondition(messages, cursor)) : logWhere(scope, params);
  const readingNewer = cursor?.direction === "newer";
  // Sent messages and replies are read side by side (each from its own index) and merged.
  const inboundWhere = cursor ? and(inboundLogWhere(scope, params), keysetCondition(inboundMessages, cursor)) : inboundLogWhere(scope, params);
  const [outbound, inbound] = await Promise.all([
    listsOutbound(params)
      ? (db
          .select(listColumns)
          .from(messages)
          .where(where)
          .orderBy(...(readingNewer ? oldestFirst : newestFirst))
          .limit(limit + 1) as Promise<ListRow[]>)
      : ([] as ListRow[]),
    listsInbound(scope, params)
      ? (db
          .select(inboundListColumns)
          .from(inboundMessages)
          .where(inboundWhere)
          .orderBy(
            ...(readingNewer
              ? [sql`${inboundMessages.createdAt} asc nulls first`, sql`${inboundMessages.id} asc nulls first`]
              : [sql`${inboundMessages.createdAt} desc nulls last`, sql`${inboundMessages.id} desc nulls last`]),
          )
          .limit(limit + 1) as Promise<InboundListRow[]>)
      : ([] as InboundListRow[]),
  ]);
  const rows = mergeKeyset<ListRow, InboundListRow>(outbound, inbound, !readingNewer, limit + 1);
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
    data: page.map((row): LogMessage => ("kind" in row ? toPublicInboundMessage(row) : toPublicMessage(row))),
    nextCursor: oldest && hasOlder ? cursorFor(oldest, "older") : null,
    prevCursor,
    hasNewer,
  };
}

/**
 * The campaign funnel (lib/campaigns/funnel.ts) of the messages the scope and filters select,
 * ignoring the status and replied filters themselves (the tiles' selection): the same numbers as the campaigns list and the campaign page,
 * so `sent` includes delivered and read messages and `delivered` includes read ones. Test sends are
 * listed in the logs but never counted; `tests` says how many the filters select.
 */
export async function countLogStatuses(db: Executor, scope: LogScope, filters: LogFilters): Promise<StatusCounts> {
  const where = logWhere(scope, { ...filters, status: undefined, replied: undefined });
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
