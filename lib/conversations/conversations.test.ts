import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, contacts, conversations, messages, senders, templates, workspaces } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { recordInboundMessages } from "@/lib/inbound/record";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { ensureSandboxTemplates } from "@/lib/templates/service";
import { testInboundMessage } from "@/lib/testing/messaging-factories";
import { createTestAccount, createTestMember } from "@/lib/testing/factories";
import { checkMediaUrl } from "./media";
import { sendReply } from "./reply";
import { replySchema } from "./schemas";
import { addNote, assignConversation, getConversation, listConversations, markConversationRead, setConversationStatus, type Viewer } from "./service";
import { conversationTimeline } from "./timeline";

const HOUR = 3_600_000;
const phone = () => `+1415557${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

const inbound = (from: string, at: Date, text = "Where is my parcel?") => testInboundMessage(from, { at, text });

async function workspace() {
  const db = await getDb();
  const owner = await createTestAccount({ name: "Olivia Owner" });
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, owner.workspaceId));
  const viewer: Viewer = { workspaceId: owner.workspaceId, actor: { type: "user", id: owner.id, email: owner.email, name: owner.name }, role: "owner" };
  /** A contact who wrote `ago` ms before now; returns its conversation id. */
  const contactWrites = async (ago: number, name = "Ann", text?: string) => {
    const from = phone();
    await db.insert(contacts).values({ id: newId("ctc"), workspaceId: owner.workspaceId, phoneNumber: from, name });
    const outcome = await recordInboundMessages(db, { workspaceId: owner.workspaceId, senderId: sender!.id }, [inbound(from, new Date(Date.now() - ago), text)]);
    const [row] = await db.select().from(conversations).where(eq(conversations.contactId, outcome.messages[0]!.contactId!));
    return { conversationId: row!.id, contactId: row!.contactId, phone: from };
  };
  return { db, owner, viewer, senderId: sender!.id, contactWrites };
}

const reply = (input: unknown) => replySchema.parse(input);
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the inbox list", () => {
  it("lists newest activity first with the window, the unread count and the filters; opening clears unread", async () => {
    const { db, owner, viewer, contactWrites } = await workspace();
    const older = await contactWrites(30 * HOUR, "Bea");
    const newer = await contactWrites(HOUR, "Cleo");
    const page = await listConversations(db, viewer, {});
    expect(page.data.map((c) => c.id)).toEqual([newer.conversationId, older.conversationId]);
    expect(page.unreadConversations).toBe(2);
    expect(page.data[0]).toMatchObject({ object: "conversation", status: "open", unread: 1, contact: { name: "Cleo" }, window: { open: true }, lastMessage: { direction: "inbound", preview: "Where is my parcel?" } });
    expect(page.data[1]!.window.open).toBe(false);

    expect((await listConversations(db, viewer, { search: "bea" })).data.map((c) => c.id)).toEqual([older.conversationId]);
    expect((await listConversations(db, viewer, { search: older.phone.slice(-6) })).data.map((c) => c.id)).toEqual([older.conversationId]);
    await markConversationRead(db, viewer, newer.conversationId);
    expect((await listConversations(db, viewer, { unread: true })).data.map((c) => c.id)).toEqual([older.conversationId]);
    await assignConversation(db, viewer, older.conversationId, owner.id, SYSTEM_ACTOR);
    expect((await listConversations(db, viewer, { assigned: "mine" })).data.map((c) => c.id)).toEqual([older.conversationId]);
    expect((await listConversations(db, viewer, { assigned: "unassigned" })).data.map((c) => c.id)).toEqual([newer.conversationId]);
    await setConversationStatus(db, viewer, newer.conversationId, "closed", SYSTEM_ACTOR);
    expect((await listConversations(db, viewer, {})).data.map((c) => c.id)).toEqual([older.conversationId]);
    expect((await listConversations(db, viewer, { status: "closed" })).data.map((c) => c.id)).toEqual([newer.conversationId]);

    const first = await listConversations(db, viewer, { status: "all", limit: 1 });
    const second = await listConversations(db, viewer, { status: "all", limit: 1, cursor: first.nextCursor! });
    expect([...first.data, ...second.data].map((c) => c.id)).toEqual([newer.conversationId, older.conversationId]);
    expect(second.nextCursor).toBeNull();
  });

  it("another workspace's conversation is not found; a member sees only theirs and the unassigned when the workspace says so", async () => {
    const { db, owner, viewer, contactWrites } = await workspace();
    const mine = await contactWrites(HOUR);
    const theirs = await contactWrites(HOUR);
    const stranger = await workspace();
    await expect(getConversation(db, stranger.viewer, mine.conversationId)).rejects.toMatchObject({ status: 404 });
    expect((await listConversations(db, stranger.viewer, {})).data).toEqual([]);

    const member = await createTestMember(owner.workspaceId, owner.id, "member");
    const memberViewer: Viewer = { workspaceId: owner.workspaceId, actor: { type: "user", id: member.id, email: member.email, name: member.name }, role: "member" };
    await assignConversation(db, viewer, theirs.conversationId, owner.id, SYSTEM_ACTOR);
    expect((await listConversations(db, memberViewer, {})).data).toHaveLength(2);
    await db.update(workspaces).set({ inboxMembersSeeAll: false }).where(eq(workspaces.id, owner.workspaceId));
    expect((await listConversations(db, memberViewer, {})).data.map((c) => c.id)).toEqual([mine.conversationId]);
    await expect(sendReply(db, memberViewer, theirs.conversationId, reply({ type: "text", text: "Hi" }), SYSTEM_ACTOR)).rejects.toMatchObject({ status: 404 });
    await assignConversation(db, viewer, theirs.conversationId, member.id, SYSTEM_ACTOR);
    expect((await listConversations(db, memberViewer, { assigned: "mine" })).data.map((c) => c.id)).toEqual([theirs.conversationId]);
  });
});

describe("what members do", () => {
  it("assignment, notes, closing and reopening land on the timeline and in the audit log; only members can be assigned", async () => {
    const { db, owner, viewer, contactWrites } = await workspace();
    const { conversationId } = await contactWrites(HOUR);
    const outsider = await createTestAccount();
    const invalid = await refusal(assignConversation(db, viewer, conversationId, outsider.id, SYSTEM_ACTOR));
    expect(invalid.status).toBe(422);
    const assigned = await assignConversation(db, viewer, conversationId, owner.id, { ...SYSTEM_ACTOR, userId: owner.id });
    expect(assigned.assignee).toEqual({ id: owner.id, name: "Olivia Owner" });
    await addNote(db, viewer, conversationId, "Customer asked about blue.");
    const closed = await setConversationStatus(db, viewer, conversationId, "closed", SYSTEM_ACTOR);
    expect(closed).toMatchObject({ status: "closed" });
    expect(closed.closedAt).not.toBeNull();
    await setConversationStatus(db, viewer, conversationId, "open", SYSTEM_ACTOR);
    const timeline = await conversationTimeline(db, viewer, conversationId);
    expect(timeline.data.map((item) => (item.direction === "internal" ? item.kind : item.direction))).toEqual(["reopened", "closed", "note", "assigned", "inbound"]);
    const note = timeline.data.find((item) => item.direction === "internal" && item.kind === "note");
    expect(note).toMatchObject({ body: "Customer asked about blue.", actor: { id: owner.id, name: "Olivia Owner" } });
    const actions = (await db.select().from(auditEvents).where(eq(auditEvents.targetId, conversationId))).map((row) => row.action).sort();
    expect(actions).toEqual(["conversation.assigned", "conversation.closed", "conversation.reopened"]);
  });
});

describe("replies", () => {
  it("a text reply inside the window is queued with its author, sent by the dispatcher, and shown on the timeline", async () => {
    const { db, owner, viewer, contactWrites } = await workspace();
    const { conversationId, phone: to } = await contactWrites(HOUR);
    const message = await sendReply(db, viewer, conversationId, reply({ type: "text", text: "It ships tomorrow." }), { ...SYSTEM_ACTOR, userId: owner.id });
    expect(message).toMatchObject({ status: "queued", source: "reply", campaignId: null, template: null, text: "It ships tomorrow.", phone: to });
    const [stored] = await db.select().from(messages).where(eq(messages.id, message.id));
    expect(stored).toMatchObject({ authorUserId: owner.id, payload: { text: { body: "It ships tomorrow.", preview_url: false } } });
    await runDispatch({ db }, { workspaceIds: [owner.workspaceId], deadlineMs: 10_000 });
    const [sent] = await db.select().from(messages).where(eq(messages.id, message.id));
    expect(sent!.status).toBe("sent");
    const conversation = await getConversation(db, viewer, conversationId);
    expect(conversation.lastMessage).toEqual({ direction: "outbound", preview: "It ships tomorrow." });
    const timeline = await conversationTimeline(db, viewer, conversationId);
    expect(timeline.data[0]).toMatchObject({ id: message.id, direction: "outbound", status: "sent", author: { id: owner.id, name: "Olivia Owner" }, automatic: false });
    const [audit] = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, conversationId), eq(auditEvents.action, "conversation.replied")));
    expect(audit).toMatchObject({ actorUserId: owner.id, metadata: { messageId: message.id, type: "text" } });
  });

  it("outside the window free-form is 409 window_closed with its end, and nothing is written; a template goes", async () => {
    const { db, viewer, contactWrites } = await workspace();
    const { conversationId, contactId } = await contactWrites(25 * HOUR);
    const closed = await refusal(sendReply(db, viewer, conversationId, reply({ type: "text", text: "Hello?" }), SYSTEM_ACTOR));
    expect(closed).toMatchObject({ status: 409, code: "window_closed" });
    expect(closed.extensions?.windowEndsAt).toEqual(expect.any(String));
    expect(Date.parse(String(closed.extensions?.windowEndsAt))).toBeLessThan(Date.now());
    expect(await db.select().from(messages).where(eq(messages.contactId, contactId))).toEqual([]);

    await ensureSandboxTemplates(db, viewer.workspaceId);
    const [order] = await db.select().from(templates).where(and(eq(templates.workspaceId, viewer.workspaceId), eq(templates.name, "order_confirmation")));
    const missing = await refusal(sendReply(db, viewer, conversationId, reply({ type: "template", templateId: order!.id, variables: { "body.1": "Ann" } }), SYSTEM_ACTOR));
    expect(missing.status).toBe(422);
    expect(missing.errors?.map((e) => e.path)).toEqual(["variables.body.2"]);
    const sent = await sendReply(db, viewer, conversationId, reply({ type: "template", templateId: order!.id, variables: { "body.1": "Ann", "body.2": "A-1" } }), SYSTEM_ACTOR);
    expect(sent).toMatchObject({ template: { name: "order_confirmation" }, source: "reply" });
    expect(sent.text).toContain("Your order number is A-1.");
  });

  it("a marketing template to an opted-out contact is 409; a template of another workspace is 422", async () => {
    const { db, viewer, contactWrites } = await workspace();
    const { conversationId, contactId } = await contactWrites(HOUR);
    await db.update(contacts).set({ optedOutAt: new Date(), optOutMethod: "manual", consentStatus: "unsubscribed" }).where(eq(contacts.id, contactId));
    await ensureSandboxTemplates(db, viewer.workspaceId);
    const [sale] = await db.select().from(templates).where(and(eq(templates.workspaceId, viewer.workspaceId), eq(templates.name, "weekly_offers")));
    const optedOut = await refusal(sendReply(db, viewer, conversationId, reply({ type: "template", templateId: sale!.id, variables: { "body.1": "Ann" } }), SYSTEM_ACTOR));
    expect(optedOut).toMatchObject({ status: 409, code: "contact_opted_out" });
    // A free-form answer to their question is still service, not marketing.
    await expect(sendReply(db, viewer, conversationId, reply({ type: "text", text: "Sorry to see you go." }), SYSTEM_ACTOR)).resolves.toMatchObject({ status: "queued" });

    const other = await workspace();
    await ensureSandboxTemplates(db, other.viewer.workspaceId);
    const [foreign] = await db.select().from(templates).where(and(eq(templates.workspaceId, other.viewer.workspaceId), eq(templates.name, "order_confirmation")));
    const notOurs = await refusal(sendReply(db, viewer, conversationId, reply({ type: "template", templateId: foreign!.id, variables: {} }), SYSTEM_ACTOR));
    expect(notOurs).toMatchObject({ status: 422 });
    expect(notOurs.errors?.[0]?.code).toBe("template_not_found");
  });

  it("media must be https and answer; an unreachable URL is 422 and nothing is queued", async () => {
    const { db, viewer, contactWrites } = await workspace();
    const { conversationId, contactId } = await contactWrites(HOUR);
    expect(replySchema.safeParse({ type: "image", url: "http://cdn.example.com/a.jpg" }).success).toBe(false);
    expect(replySchema.safeParse({ type: "text", text: "x".repeat(4097) }).success).toBe(false);
    const unreachable = await refusal(sendReply(db, viewer, conversationId, reply({ type: "image", url: "https://cdn.example.com/a.jpg" }), SYSTEM_ACTOR, { checkMedia: async () => "The URL answered 404." }));
    expect(unreachable).toMatchObject({ status: 422 });
    expect(unreachable.errors).toEqual([{ path: "url", code: "media_unreachable", message: "The URL answered 404." }]);
    expect(await db.select().from(messages).where(eq(messages.contactId, contactId))).toEqual([]);
    const sent = await sendReply(db, viewer, conversationId, reply({ type: "document", url: "https://cdn.example.com/files/invoice.pdf", caption: "Your invoice" }), SYSTEM_ACTOR, { checkMedia: async () => null });
    expect(sent.text).toBe("Document invoice.pdf: Your invoice");
    const [stored] = await db.select().from(messages).where(eq(messages.id, sent.id));
    expect(stored!.payload).toEqual({ document: { link: "https://cdn.example.com/files/invoice.pdf", caption: "Your invoice", filename: "invoice.pdf" } });
    // The real check refuses a loopback address before any request.
    expect(await checkMediaUrl("https://127.0.0.1:9/a.jpg")).toMatch(/public addresses/);
  });
});
