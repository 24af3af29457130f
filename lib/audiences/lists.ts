// Lists: static audiences. Contacts join by hand, by import or by the API; membership is a row in
// contact_list_members, so a contact can be in any number of lists.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { contactListMembers, contactLists, contacts } from "@/db/schema";
import { contactPhoneSchema } from "@/lib/contacts/schemas";
import { newId } from "@/lib/crypto/random";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { hasErrorCode, isUniqueViolation } from "@/lib/http/problem";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";

export const MAX_MEMBERSHIP_BATCH = 1000;

const listName = z.string().trim().min(1, "Give the list a name.").max(100).refine(isStorableText, { message: STORABLE_TEXT_MESSAGE });

export const createListSchema = z.object({ name: listName });
export const updateListSchema = z.object({ name: listName });

export const membershipSchema = z
  .object({
    contactIds: z.array(z.string().min(1).max(64)).max(MAX_MEMBERSHIP_BATCH).optional(),
    phones: z.array(contactPhoneSchema).max(MAX_MEMBERSHIP_BATCH).optional(),
  })
  .superRefine((body, ctx) => {
    const total = (body.contactIds?.length ?? 0) + (body.phones?.length ?? 0);
    if (total === 0) ctx.addIssue({ code: "custom", path: ["contactIds"], message: "Send contactIds, phones or both." });
    if (total > MAX_MEMBERSHIP_BATCH) ctx.addIssue({ code: "custom", path: ["contactIds"], message: `At most ${MAX_MEMBERSHIP_BATCH} contacts per request.` });
  });
export type MembershipInput = z.output<typeof membershipSchema>;


export interface ListView {
  id: string;
  object: "list";
  name: string;
  contactCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipResult {
  listId: string;
  /** Contacts that joined (or left) with this request; members already in (or out) are not counted. */
  changed: number;
  /** Ids and phones that match no contact of the workspace: nothing happened for them. */
  unknownContactIds: string[];
  unknownPhones: string[];
  contactCount: number;
}

type ListRow = typeof contactLists.$inferSelect;

const LIST_ID = /^lst_[A-Za-z0-9]{1,64}$/;
const missing = () => notFound("No list with this id exists in your workspace.");
const nameTaken = (name: string) => conflict(`A list named "${name}" already exists in your workspace.`, "list_name_taken");

const memberCount = (listId: typeof contactLists.id) =>
  sql<number>`(select count(*)::int from ${contactListMembers} where ${contactListMembers.listId} = ${listId})`.mapWith(Number);

function toView(row: ListRow, contactCount: number): ListView {
  return { id: row.id, object: "list", name: row.name, contactCount, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function loadList(db: Executor, workspaceId: string, id: string): Promise<ListRow> {
  if (!LIST_ID.test(id)) throw missing();
  const [row] = await db.select().from(contactLists).where(and(eq(contactLists.workspaceId, workspaceId), eq(contactLists.id, id)));
  if (!row) throw missing();
  return row;
}

export async function getList(db: Executor, workspaceId: string, id: string): Promise<ListView> {
  if (!LIST_ID.test(id)) throw missing();
  const [row] = await db
    .select({ list: contactLists, count: memberCount(contactLists.id) })
    .from(contactLists)
    .where(and(eq(contactLists.workspaceId, workspaceId), eq(contactLists.id, id)));
  if (!row) throw missing();
  return toView(row.list, row.count);
}

export async function listLists(db: Executor, workspaceId: string, options: { limit?: number; cursor?: string }): Promise<{ data: ListView[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  const conditions = [eq(contactLists.workspaceId, workspaceId)];
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor, { id: LIST_ID });
    if (!cursor || cursor.direction !== "older") {
      throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "The cursor is not valid; start again from the first page." }]);
    }
    conditions.push(keysetCondition(contactLists, cursor));
  }
  const rows = await db
    .select({ list: contactLists, count: memberCount(contactLists.id), position: cursorTimestamp(contactLists.createdAt) })
    .from(contactLists)
    .where(and(...conditions))
    .orderBy(desc(contactLists.createdAt), desc(contactLists.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toView(row.list, row.count)),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.list.id, direction: "older" }) : null,
  };
}

export async function createList(db: Executor, workspaceId: string, body: z.input<typeof createListSchema>): Promise<ListView> {
  const input = createListSchema.parse(body);
  const [row] = await db.insert(contactLists).values({ id: newId("lst"), workspaceId, name: input.name }).onConflictDoNothing().returning();
  if (!row) throw nameTaken(input.name);
  return toView(row, 0);
}

export async function updateList(db: Executor, workspaceId: string, id: string, body: z.input<typeof updateListSchema>): Promise<ListView> {
  const input = updateListSchema.parse(body);
  await loadList(db, workspaceId, id);
  try {
    await db
      .update(contactLists)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(contactLists.workspaceId, workspaceId), eq(contactLists.id, id)));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  return getList(db, workspaceId, id);
}

/** Deletes the list and its memberships; the contacts stay. */
export async function deleteList(db: Executor, workspaceId: string, id: string): Promise<void> {
  await loadList(db, workspaceId, id);
  await db.delete(contactLists).where(and(eq(contactLists.workspaceId, workspaceId), eq(contactLists.id, id)));
}

/** The workspace's contacts among these ids and phones, and the ids and phones that match none. */
async function resolveMembers(db: Executor, workspaceId: string, input: MembershipInput) {
  const ids = [...new Set(input.contactIds ?? [])];
  const phones = [...new Set(input.phones ?? [])];
  const found =
    ids.length + phones.length === 0
      ? []
      : await db
          .select({ id: contacts.id, phone: contacts.phoneNumber })
          .from(contacts)
          .where(
            and(
              eq(contacts.workspaceId, workspaceId),
              sql`(${ids.length > 0 ? inArray(contacts.id, ids) : sql`false`} or ${phones.length > 0 ? inArray(contacts.phoneNumber, phones) : sql`false`})`,
            ),
          );
  const foundIds = new Set(found.map((row) => row.id));
  const foundPhones = new Set(found.map((row) => row.phone));
  return {
    contactIds: [...foundIds],
    unknownContactIds: ids.filter((id) => !foundIds.has(id)),
    unknownPhones: phones.filter((phone) => !foundPhones.has(phone)),
  };
}

export async function countMembers(db: Executor, listId: string): Promise<number> {
  const [row] = await queryRows<{ count: number | string }>(db, sql`select count(*)::int as count from contact_list_members where list_id = ${listId}`);
  return Number(row?.count ?? 0);
}

export async function addListMembers(db: Executor, workspaceId: string, listId: string, input: MembershipInput): Promise<MembershipResult> {
  // A list or a contact deleted between the reads and the insert fails the insert's key check
  // (`23503`): read again, and the list is gone (404) or the contact is no longer named.
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertListMembers(db, workspaceId, listId, input);
    } catch (error) {
      if (attempt === 2 || !hasErrorCode(error, (code) => code === "23503")) throw error;
    }
  }
}

async function insertListMembers(db: Executor, workspaceId: string, listId: string, input: MembershipInput): Promise<MembershipResult> {
  await loadList(db, workspaceId, listId);
  const resolved = await resolveMembers(db, workspaceId, input);
  let changed = 0;
  if (resolved.contactIds.length > 0) {
    const inserted = await db
      .insert(contactListMembers)
      .values(resolved.contactIds.map((contactId) => ({ listId, contactId })))
      .onConflictDoNothing()
      .returning({ contactId: contactListMembers.contactId });
    changed = inserted.length;
  }
  return { listId, changed, unknownContactIds: resolved.unknownContactIds, unknownPhones: resolved.unknownPhones, contactCount: await countMembers(db, listId) };
}

export async function removeListMembers(db: Executor, workspaceId: string, listId: string, input: MembershipInput): Promise<MembershipResult> {
  await loadList(db, workspaceId, listId);
  const resolved = await resolveMembers(db, workspaceId, input);
  let changed = 0;
  if (resolved.contactIds.length > 0) {
    const removed = await db
      .delete(contactListMembers)
      .where(and(eq(contactListMembers.listId, listId), inArray(contactListMembers.contactId, resolved.contactIds)))
      .returning({ contactId: contactListMembers.contactId });
    changed = removed.length;
  }
  return { listId, changed, unknownContactIds: resolved.unknownContactIds, unknownPhones: resolved.unknownPhones, contactCount: await countMembers(db, listId) };
}

