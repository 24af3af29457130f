// A contact's messages across campaigns (the contact page's timeline and the REST API's
// /contacts/{idOrPhone}/messages).
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, newestFirst } from "@/db/cursor";
import { campaigns, messages } from "@/db/schema";
import type { PageQuery } from "@/lib/contacts/schemas";
import { resolveContactId } from "@/lib/contacts/service";
import { invalidCursor } from "@/lib/contacts/sql";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";

export interface ContactMessage extends PublicMessage {
  campaignName: string;
}

const MESSAGE_ID = /^msg_[A-Za-z0-9]{1,64}$/;

/** The contact's messages across campaigns, newest first, keyset-paginated. */
export async function listContactMessages(
  db: Executor,
  workspaceId: string,
  idOrPhone: string,
  query: Partial<PageQuery>,
): Promise<{ data: ContactMessage[]; nextCursor: string | null }> {
  const contactId = await resolveContactId(db, workspaceId, idOrPhone);
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const conditions = [eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)];
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, { id: MESSAGE_ID });
    if (!cursor || cursor.direction !== "older") throw invalidCursor();
    conditions.push(keysetCondition(messages, cursor));
  }
  const rows = await db
    .select({ message: messages, campaignName: campaigns.name, position: cursorTimestamp(messages.createdAt) })
    .from(messages)
    .innerJoin(campaigns, eq(campaigns.id, messages.campaignId))
    .where(and(...conditions))
    .orderBy(...newestFirst(messages.createdAt, messages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({ ...toPublicMessage(row.message), campaignName: row.campaignName })),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.message.id, direction: "older" }) : null,
  };
}
