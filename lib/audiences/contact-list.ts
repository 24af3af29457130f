// The contacts list: the workspace's contacts newest first, searched, and narrowed to a list, a
// segment or their consent.
import { and, eq, ilike, like, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { decodeCursor, encodeCursor, keysetCondition, newestFirst } from "@/db/cursor";
import type { CountContactsQuery, ListContactsQuery } from "@/lib/contacts/schemas";
import { CONTACT_ID, contactViewColumns, toContactView, type ContactView } from "@/lib/contacts/service";
import { c, escapeLike, invalidCursor } from "@/lib/contacts/sql";
import { loadList } from "./lists";
import { compileSegmentFilter, segmentFilter } from "./segments";

/** The conditions of the list's filters (search, list, segment, consent), shared by the page and its count. */
async function filterConditions(db: Executor, workspaceId: string, query: Partial<CountContactsQuery>): Promise<SQL[]> {
  const conditions: SQL[] = [eq(c.workspaceId, workspaceId)];
  if (query.search) {
    const digits = query.search.replace(/\D/g, "");
    const byName = ilike(c.name, `%${escapeLike(query.search)}%`);
    conditions.push(digits ? (or(like(c.phoneNumber, `%${digits}%`), byName) as SQL) : byName);
  }
  if (query.listId) {
    await loadList(db, workspaceId, query.listId);
    conditions.push(sql`exists (select 1 from contact_list_members fm where fm.list_id = ${query.listId} and fm.contact_id = ${c.id})`);
  }
  if (query.segmentId) conditions.push(compileSegmentFilter(await segmentFilter(db, workspaceId, query.segmentId)));
  if (query.optedOut !== undefined) conditions.push(query.optedOut ? sql`${c.optedOutAt} is not null` : sql`${c.optedOutAt} is null`);
  return conditions;
}

/** How many contacts the list shows with these filters (all of them without any): the one count of the contacts pages. */
export async function countContacts(db: Executor, workspaceId: string, query: Partial<CountContactsQuery> = {}): Promise<{ contactCount: number }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(c)
    .where(and(...(await filterConditions(db, workspaceId, query))));
  return { contactCount: row?.count ?? 0 };
}

/** Newest first, keyset-paginated (microsecond-exact), searched and filtered. */
export async function listContacts(db: Executor, workspaceId: string, query: Partial<ListContactsQuery>): Promise<{ data: ContactView[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const conditions = await filterConditions(db, workspaceId, query);
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, { id: CONTACT_ID });
    if (!cursor || cursor.direction !== "older") throw invalidCursor();
    conditions.push(keysetCondition({ createdAt: c.createdAt, id: c.id }, cursor));
  }
  const rows = await db
    .select(contactViewColumns)
    .from(c)
    .where(and(...conditions))
    .orderBy(...newestFirst(c.createdAt, c.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toContactView),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.contact.id, direction: "older" }) : null,
  };
}
