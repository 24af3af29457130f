// A conversation's timeline: every message between the contact and the number (campaign messages,
// replies, the contact's messages of every kind) and what members did (notes, assignment, closing,
// reopening), newest first under one keyset cursor (`created_at`, then id; db/cursor.ts).
//
// Statements: the conversation (visibility), one UNION ALL for the page's positions, then the page's
// rows of each table (in parallel). Each side reads at most limit + 1 rows from its index.
import { and, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Executor } from "@/db";
import { encodeCursor } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { campaigns, conversationEvents, inboundMessages, messages, users, type ConversationEventKind } from "@/db/schema";
import { pageQueryShape } from "@/lib/contacts/schemas";
import { toPublicInboundMessage, type PublicInboundMessage } from "@/lib/inbound/public";
import { olderThanCursor } from "@/lib/inbound/timeline";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { visibleConversationRow, type Viewer } from "./service";

export const conversationTimelineQuerySchema = z.object({ ...pageQueryShape });

export interface ConversationEventItem {
  id: string;
  object: "conversation_event";
  /** Not a message: something a member (or the system) did, seen only in the workspace. */
  direction: "internal";
  kind: ConversationEventKind;
  actor: { id: string; name: string | null } | null;
  assignee: { id: string; name: string | null } | null;
  body: string | null;
  createdAt: string;
}

export type TimelineItem =
  | (PublicMessage & { campaignName: string | null; author: { id: string; name: string | null } | null; automatic: boolean })
  | (PublicInboundMessage & { campaignName: string | null })
  | ConversationEventItem;

const ITEM_ID = /^(msg|inm|cev)_[A-Za-z0-9]{1,64}$/;
type Side = "outbound" | "inbound" | "internal";

/** One page of the conversation's timeline, newest first. */
export async function conversationTimeline(
  db: Executor,
  viewer: Viewer,
  conversationId: string,
  query: { cursor?: string; limit?: number } = {},
): Promise<{ data: TimelineItem[]; nextCursor: string | null }> {
  const conversation = await visibleConversationRow(db, viewer, conversationId);
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const after = olderThanCursor(query.cursor, ITEM_ID);
  const workspaceId = viewer.workspaceId;
  const position = sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position`;
  const between = sql`contact_id = ${conversation.contactId} and workspace_id = ${workspaceId} and sender_id = ${conversation.senderId} and ${after}`;
  const positions = await queryRows<{ side: Side; id: string; position: string }>(
    db,
    sql`select side, id, position from (
      (select 'outbound'::text as side, id, created_at, ${position} from messages where ${between} and source <> 'test' order by created_at desc, id desc limit ${limit + 1})
      union all
      (select 'inbound'::text, id, created_at, ${position} from inbound_messages where ${between} order by created_at desc, id desc limit ${limit + 1})
      union all
      (select 'internal'::text, id, created_at, ${position} from conversation_events where conversation_id = ${conversation.id} and ${after} order by created_at desc, id desc limit ${limit + 1})
    ) t order by created_at desc, id desc limit ${limit + 1}`,
  );
  const page = positions.slice(0, limit);
  const idsOf = (side: Side) => page.filter((row) => row.side === side).map((row) => row.id);
  const [outboundIds, inboundIds, eventIds] = [idsOf("outbound"), idsOf("inbound"), idsOf("internal")];
  const author = alias(users, "author");
  const assignee = alias(users, "assignee");
  const [outbound, inbound, events] = await Promise.all([
    outboundIds.length
      ? db
          .select({ message: messages, campaignName: campaigns.name, authorName: author.name })
          .from(messages)
          .leftJoin(campaigns, eq(campaigns.id, messages.campaignId))
          .leftJoin(author, eq(author.id, messages.authorUserId))
          .where(and(eq(messages.workspaceId, workspaceId), inArray(messages.id, outboundIds)))
      : [],
    inboundIds.length
      ? db
          .select({ message: inboundMessages, campaignName: campaigns.name })
          .from(inboundMessages)
          .leftJoin(campaigns, eq(campaigns.id, inboundMessages.campaignId))
          .where(and(eq(inboundMessages.workspaceId, workspaceId), inArray(inboundMessages.id, inboundIds)))
      : [],
    eventIds.length
      ? db
          .select({ event: conversationEvents, actorName: author.name, assigneeName: assignee.name })
          .from(conversationEvents)
          .leftJoin(author, eq(author.id, conversationEvents.actorUserId))
          .leftJoin(assignee, eq(assignee.id, conversationEvents.assigneeUserId))
          .where(and(eq(conversationEvents.workspaceId, workspaceId), inArray(conversationEvents.id, eventIds)))
      : [],
  ]);
  const byId = new Map<string, TimelineItem>();
  for (const row of outbound) {
    const authorId = row.message.authorUserId;
    byId.set(row.message.id, {
      ...toPublicMessage(row.message),
      campaignName: row.campaignName,
      author: authorId ? { id: authorId, name: row.authorName } : null,
      automatic: row.message.autoReplyId !== null,
    });
  }
  for (const row of inbound) byId.set(row.message.id, { ...toPublicInboundMessage(row.message), campaignName: row.campaignName });
  for (const { event, actorName, assigneeName } of events) {
    byId.set(event.id, {
      id: event.id,
      object: "conversation_event",
      direction: "internal",
      kind: event.kind,
      actor: event.actorUserId ? { id: event.actorUserId, name: actorName } : null,
      assignee: event.assigneeUserId ? { id: event.assigneeUserId, name: assigneeName } : null,
      body: event.body,
      createdAt: event.createdAt.toISOString(),
    });
  }
  const last = page.at(-1);
  return {
    data: page.map((row) => byId.get(row.id)).filter((item): item is TimelineItem => item !== undefined),
    nextCursor: positions.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id, direction: "older" }) : null,
  };
}
