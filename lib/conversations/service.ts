// The inbox: conversations listed newest activity first, one conversation with its contact, and what
// members do to it (open it, assign, note, close, reopen). Replies are reply.ts; the timeline is
// timeline.ts.
//
// Who sees what (`visibleTo`): owners, admins and API keys see every conversation; members see all
// of them too unless the workspace turned `inbox_members_see_all` off, then only those assigned to
// them or to nobody. Another workspace's conversation, or one the caller may not see, is 404.
import { and, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, newestFirst } from "@/db/cursor";
import { campaigns, contacts, conversationEvents, conversations, memberships, senders, users, workspaces, type MemberRole } from "@/db/schema";
import { invalidCursor } from "@/lib/audiences/segments";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { notFound, validationFailed } from "@/lib/http/errors";
import type { Actor } from "@/lib/workspaces";
import { toPublicConversation, type PublicConversation } from "./public";
import { resolveContactId } from "@/lib/contacts/service";
import { getSenderRow, getSenderRowById } from "@/lib/senders/service";
import type { ListConversationsQuery, OpenConversationInput } from "./schemas";

/** Who is asking: the actor and, for a signed-in member, their role. */
export interface Viewer {
  workspaceId: string;
  actor: Actor;
  role: MemberRole | null;
}

const CONVERSATION_ID = /^cnv_[A-Za-z0-9]{1,64}$/;

/** The conversations a viewer may see: all, or (a member where the workspace limits them) theirs and the unassigned. */
async function visibleTo(db: Executor, viewer: Viewer): Promise<SQL | undefined> {
  if (viewer.actor.type !== "user" || viewer.role !== "member") return undefined;
  const [workspace] = await db.select({ all: workspaces.inboxMembersSeeAll }).from(workspaces).where(eq(workspaces.id, viewer.workspaceId)).limit(1);
  if (workspace?.all !== false) return undefined;
  return or(isNull(conversations.assigneeUserId), eq(conversations.assigneeUserId, viewer.actor.id));
}

const selection = {
  conversation: conversations,
  contactName: contacts.name,
  contactPhone: contacts.phoneNumber,
  contactOptedOutAt: contacts.optedOutAt,
  contactConsent: contacts.consentStatus,
  senderName: senders.name,
  senderPhone: senders.displayPhoneNumber,
  assigneeName: users.name,
  campaignName: campaigns.name,
  position: cursorTimestamp(conversations.lastActivityAt),
};

function selectConversations(db: Executor) {
  return db
    .select(selection)
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(senders, eq(senders.id, conversations.senderId))
    .leftJoin(users, eq(users.id, conversations.assigneeUserId))
    .leftJoin(campaigns, eq(campaigns.id, conversations.campaignId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectConversations>["where"]>>[number];

const toPublic = (row: Selected, now: Date) =>
  toPublicConversation(
    {
      ...row.conversation,
      contact: { id: row.conversation.contactId, phone: row.contactPhone, name: row.contactName, optedOut: row.contactOptedOutAt !== null, consentStatus: row.contactConsent },
      senderName: row.senderName,
      senderPhone: row.senderPhone,
      assigneeName: row.assigneeName,
      campaignName: row.campaignName,
    },
    now,
  );

export interface ConversationPage {
  data: PublicConversation[];
  nextCursor: string | null;
  /** Open conversations with unread messages the viewer may see (the navigation's badge). */
  unreadConversations: number;
}

/** One page of the viewer's conversations, newest activity first, filtered. */
export async function listConversations(db: Executor, viewer: Viewer, query: Partial<ListConversationsQuery>, now = new Date()): Promise<ConversationPage> {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const visible = await visibleTo(db, viewer);
  const conditions: (SQL | undefined)[] = [eq(conversations.workspaceId, viewer.workspaceId), visible];
  const status = query.status ?? "open";
  if (status !== "all") conditions.push(eq(conversations.status, status));
  const assigned = query.assigned ?? "all";
  if (assigned === "unassigned") conditions.push(isNull(conversations.assigneeUserId));
  if (assigned === "mine") {
    if (viewer.actor.type !== "user") throw validationFailed([{ path: "assigned", code: "invalid_value", message: "An API key has no conversations of its own: use `all` or `unassigned`." }]);
    conditions.push(eq(conversations.assigneeUserId, viewer.actor.id));
  }
  if (query.senderId) conditions.push(eq(conversations.senderId, query.senderId));
  if (query.campaignId) conditions.push(eq(conversations.campaignId, query.campaignId));
  if (query.unread) conditions.push(sql`${conversations.unread} > 0`);
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const digits = query.search.replace(/[^\d+]/g, "");
    conditions.push(or(ilike(contacts.name, pattern), digits.length >= 3 ? ilike(contacts.phoneNumber, `%${digits}%`) : undefined));
  }
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, { id: CONVERSATION_ID });
    if (!cursor || cursor.direction !== "older") throw invalidCursor();
    conditions.push(sql`(${conversations.lastActivityAt}, ${conversations.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`);
  }
  const [rows, unreadConversations] = await Promise.all([
    selectConversations(db)
      .where(and(...conditions))
      .orderBy(...newestFirst(conversations.lastActivityAt, conversations.id))
      .limit(limit + 1),
    unreadConversationCount(db, viewer, visible ?? sql`true`),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toPublic(row, now)),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.conversation.id, direction: "older" }) : null,
    unreadConversations,
  };
}

/** The conversation as the viewer may see it; 404 otherwise. */
export async function getConversation(db: Executor, viewer: Viewer, id: string, now = new Date()): Promise<PublicConversation> {
  const [row] = await selectConversations(db)
    .where(and(eq(conversations.workspaceId, viewer.workspaceId), eq(conversations.id, id), await visibleTo(db, viewer)))
    .limit(1);
  if (!row) throw conversationNotFound();
  return toPublic(row, now);
}

export const conversationNotFound = () => notFound("No conversation with this id exists in your workspace.");

/** The stored row, checked visible to the viewer (404 otherwise). */
export async function visibleConversationRow(db: Executor, viewer: Viewer, id: string) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, viewer.workspaceId), eq(conversations.id, id), await visibleTo(db, viewer)))
    .limit(1);
  if (!row) throw conversationNotFound();
  return row;
}

const actorUserId = (actor: Actor) => (actor.type === "user" ? actor.id : null);

/** A member opened it: nothing is unread any more. */
export async function markConversationRead(db: Executor, viewer: Viewer, id: string): Promise<void> {
  const row = await visibleConversationRow(db, viewer, id);
  if (row.unread > 0) await db.update(conversations).set({ unread: 0 }).where(and(eq(conversations.id, row.id), sql`${conversations.unread} > 0`));
}

/** An internal note (never sent to the contact). */
export async function addNote(db: Executor, viewer: Viewer, id: string, body: string, now = new Date()) {
  const row = await visibleConversationRow(db, viewer, id);
  const note = { id: newId("cev"), conversationId: row.id, workspaceId: viewer.workspaceId, kind: "note" as const, actorUserId: actorUserId(viewer.actor), body, createdAt: now };
  await db.transaction(async (tx) => {
    await tx.insert(conversationEvents).values(note);
    await tx.update(conversations).set({ lastActivityAt: sql`greatest(${conversations.lastActivityAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now }).where(eq(conversations.id, row.id));
  });
  return note;
}

/** Assigns it to a member of the workspace (422 for anyone else), or to nobody; audited. */
export async function assignConversation(db: Executor, viewer: Viewer, id: string, assigneeId: string | null, audit: AuditActor): Promise<PublicConversation> {
  const row = await visibleConversationRow(db, viewer, id);
  if (assigneeId !== null) {
    const [member] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, viewer.workspaceId), eq(memberships.userId, assigneeId)))
      .limit(1);
    if (!member) throw validationFailed([{ path: "assigneeId", code: "not_a_member", message: "Assign the conversation to a member of this workspace." }]);
  }
  if (row.assigneeUserId !== assigneeId) {
    await db.transaction(async (tx) => {
      await tx.update(conversations).set({ assigneeUserId: assigneeId, updatedAt: new Date() }).where(eq(conversations.id, row.id));
      await tx.insert(conversationEvents).values({
        id: newId("cev"),
        conversationId: row.id,
        workspaceId: viewer.workspaceId,
        kind: assigneeId ? "assigned" : "unassigned",
        actorUserId: actorUserId(viewer.actor),
        assigneeUserId: assigneeId,
      });
      await recordAudit(tx, {
        workspaceId: viewer.workspaceId,
        actor: audit,
        action: assigneeId ? "conversation.assigned" : "conversation.unassigned",
        targetType: "conversation",
        targetId: row.id,
        metadata: { assigneeId, previousAssigneeId: row.assigneeUserId },
      });
    });
  }
  return getConversation(db, { ...viewer, role: null }, row.id);
}

/** Closes or reopens it (a no-op when it already is); audited. A new message from the contact reopens it too. */
export async function setConversationStatus(db: Executor, viewer: Viewer, id: string, status: "open" | "closed", audit: AuditActor): Promise<PublicConversation> {
  const row = await visibleConversationRow(db, viewer, id);
  if (row.status !== status) {
    const now = new Date();
    await db.transaction(async (tx) => {
      await tx
        .update(conversations)
        .set({ status, closedAt: status === "closed" ? now : null, updatedAt: now })
        .where(and(eq(conversations.id, row.id), eq(conversations.status, row.status)));
      await tx.insert(conversationEvents).values({
        id: newId("cev"),
        conversationId: row.id,
        workspaceId: viewer.workspaceId,
        kind: status === "closed" ? "closed" : "reopened",
        actorUserId: actorUserId(viewer.actor),
      });
      await recordAudit(tx, { workspaceId: viewer.workspaceId, actor: audit, action: status === "closed" ? "conversation.closed" : "conversation.reopened", targetType: "conversation", targetId: row.id });
    });
  }
  return getConversation(db, { ...viewer, role: null }, row.id);
}

/**
 * The conversation of a contact on a number (the workspace's default without `senderId`), created
 * open with nothing unread when there is none yet: a member writing first (a template, as no window
 * is open). `created` says which. Another workspace's contact or number is 404.
 */
export async function openConversation(db: Executor, viewer: Viewer, input: OpenConversationInput): Promise<{ conversation: PublicConversation; created: boolean }> {
  const contactId = await resolveContactId(db, viewer.workspaceId, input.contact);
  const sender = input.senderId ? await getSenderRowById(db, viewer.workspaceId, input.senderId) : await getSenderRow(db, viewer.workspaceId);
  const [inserted] = await db
    .insert(conversations)
    .values({ id: newId("cnv"), workspaceId: viewer.workspaceId, contactId, senderId: sender.id })
    .onConflictDoNothing({ target: [conversations.workspaceId, conversations.contactId, conversations.senderId] })
    .returning({ id: conversations.id });
  const [row] = inserted
    ? [inserted]
    : await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.workspaceId, viewer.workspaceId), eq(conversations.contactId, contactId), eq(conversations.senderId, sender.id)))
        .limit(1);
  return { conversation: await getConversation(db, viewer, row!.id), created: Boolean(inserted) };
}

/** Members who can be assigned (the workspace's), for the assign menu. */
export async function assignableMembers(db: Executor, workspaceId: string): Promise<{ id: string; name: string; email: string }[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(users.name);
}

/** Open conversations with unread messages the viewer may see: the navigation's badge. */
export async function unreadConversationCount(db: Executor, viewer: Viewer, visible?: SQL): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conversations)
    .where(and(eq(conversations.workspaceId, viewer.workspaceId), visible ?? (await visibleTo(db, viewer)), sql`${conversations.unread} > 0`, eq(conversations.status, "open")));
  return Number(row?.n ?? 0);
}
