// A contact's timeline: the messages we sent them and the messages they sent us, newest first, in
// one keyset order (`created_at`, then id) under the shared cursor codec (db/cursor.ts).
//
// Statements: the contact's id, one UNION ALL for the page's positions, then the page's rows of
// each table (in parallel).
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { decodeCursor, encodeCursor } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { campaigns, inboundMessages, messages } from "@/db/schema";
import { invalidCursor } from "@/lib/audiences/segments";
import { pageQueryShape } from "@/lib/contacts/schemas";
import { resolveContactId } from "@/lib/contacts/service";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { toPublicInboundMessage, type PublicInboundMessage } from "./public";

export const MESSAGE_DIRECTIONS = ["outbound", "inbound"] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

export const contactTimelineQuerySchema = z.object({
  ...pageQueryShape,
  direction: z
    .preprocess(emptyToUndefined, z.enum(MESSAGE_DIRECTIONS).optional())
    .meta({ description: "Only messages sent to the contact (`outbound`) or by the contact (`inbound`); both when omitted." }),
});
export type ContactTimelineQuery = z.output<typeof contactTimelineQuerySchema>;

export type TimelineMessage = (PublicMessage & { campaignName: string }) | (PublicInboundMessage & { campaignName: string | null });

/** Ids of either table: outbound `msg_…`, inbound `inm_…`. */
const TIMELINE_ID = /^(msg|inm)_[A-Za-z0-9]{1,64}$/;

/**
 * Rows older than the cursor's position on bare `(created_at, id)` columns, for a UNION ALL over
 * several tables read newest first (`true` without a cursor); 400 for a cursor that is not one of
 * an older page with an id matching `ids`.
 */
export function olderThanCursor(token: string | undefined, ids: RegExp): SQL {
  if (!token) return sql`true`;
  const cursor = decodeCursor(token, { id: ids });
  if (!cursor || cursor.direction !== "older") throw invalidCursor();
  return sql`(created_at, id) < (${cursor.createdAt}::timestamptz, ${cursor.id})`;
}

/** The contact's messages in both directions (or one), newest first, keyset-paginated. */
export async function listContactMessages(
  db: Executor,
  workspaceId: string,
  idOrPhone: string,
  query: Partial<ContactTimelineQuery>,
): Promise<{ data: TimelineMessage[]; nextCursor: string | null }> {
  const contactId = await resolveContactId(db, workspaceId, idOrPhone);
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const after = olderThanCursor(query.cursor, TIMELINE_ID);
  // Each side reads at most limit + 1 rows from its (contact, created_at, id) index.
  const side = (table: "messages" | "inbound_messages", direction: MessageDirection) => sql`(select ${direction}::text as direction, id, created_at,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position
    from ${sql.identifier(table)}
    where contact_id = ${contactId} and workspace_id = ${workspaceId} and ${after}
    order by created_at desc, id desc limit ${limit + 1})`;
  const sides = [
    query.direction !== "inbound" ? side("messages", "outbound") : null,
    query.direction !== "outbound" ? side("inbound_messages", "inbound") : null,
  ].filter((part) => part !== null);
  const positions = await queryRows<{ direction: MessageDirection; id: string; position: string }>(
    db,
    sql`select direction, id, position from (${sql.join(sides, sql` union all `)}) t order by created_at desc, id desc limit ${limit + 1}`,
  );
  const page = positions.slice(0, limit);
  const outboundIds = page.filter((row) => row.direction === "outbound").map((row) => row.id);
  const inboundIds = page.filter((row) => row.direction === "inbound").map((row) => row.id);
  const [outbound, inbound] = await Promise.all([
    outboundIds.length
      ? db.select({ message: messages, campaignName: campaigns.name }).from(messages).innerJoin(campaigns, eq(campaigns.id, messages.campaignId)).where(and(eq(messages.workspaceId, workspaceId), inArray(messages.id, outboundIds)))
      : [],
    inboundIds.length
      ? db
          .select({ message: inboundMessages, campaignName: campaigns.name })
          .from(inboundMessages)
          .leftJoin(campaigns, eq(campaigns.id, inboundMessages.campaignId))
          .where(and(eq(inboundMessages.workspaceId, workspaceId), inArray(inboundMessages.id, inboundIds)))
      : [],
  ]);
  const byId = new Map<string, TimelineMessage>();
  for (const row of outbound) byId.set(row.message.id, { ...toPublicMessage(row.message), campaignName: row.campaignName });
  for (const row of inbound) byId.set(row.message.id, { ...toPublicInboundMessage(row.message), campaignName: row.campaignName });
  const last = page.at(-1);
  return {
    data: page.map((row) => byId.get(row.id)).filter((message): message is TimelineMessage => message !== undefined),
    nextCursor: positions.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id, direction: "older" }) : null,
  };
}
