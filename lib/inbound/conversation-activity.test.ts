import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, conversationEvents, conversations, inboundMessages, messages, senders, workspaces } from "@/db/schema";
import type { InboundMessage } from "@/lib/channels/types";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestCampaign, createTestMessage, testInboundMessage } from "@/lib/testing/messaging-factories";
import { recordInboundMessages } from "./record";

const phone = () => `+1415556${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
const HOUR = 3_600_000;

const inbound = (from: string, at: Date, overrides: Partial<InboundMessage> = {}) => testInboundMessage(from, { at, text: "Is it in blue?", ...overrides });

async function setup() {
  const db = await getDb();
  const account = await createTestAccount();
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
  const from = phone();
  const contactId = newId("ctc");
  await db.insert(contacts).values({ id: contactId, workspaceId: account.workspaceId, phoneNumber: from, name: "Ann" });
  return { db, workspaceId: account.workspaceId, senderId: sender!.id, from, contactId };
}

const conversationOf = async (workspaceId: string) => (await (await getDb()).select().from(conversations).where(eq(conversations.workspaceId, workspaceId)));
const repliedAt = async (id: string) => (await (await getDb()).select({ at: messages.repliedAt }).from(messages).where(eq(messages.id, id)))[0]!.at;

describe("inbound messages open conversations", () => {
  it("the first message opens one conversation per contact and number; later ones move the window, the line and the unread count", async () => {
    const { db, workspaceId, senderId, from, contactId } = await setup();
    const first = new Date("2026-11-20T10:00:00Z");
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, first, { text: "Hello" })]);
    let [conversation] = await conversationOf(workspaceId);
    expect(conversation).toMatchObject({ contactId, senderId, status: "open", unread: 1, lastInboundAt: first, lastActivityAt: first, lastPreview: "Hello", lastDirection: "inbound" });

    const later = new Date(first.getTime() + 60_000);
    const older = new Date(first.getTime() - 60_000);
    // A batch with two messages of the same contact (one older, delivered late) and a redelivery.
    const batch = [inbound(from, later, { text: "Is it in blue?" }), inbound(from, older, { text: "earlier" })];
    await recordInboundMessages(db, { workspaceId, senderId }, batch);
    await recordInboundMessages(db, { workspaceId, senderId }, batch);
    const rows = await conversationOf(workspaceId);
    expect(rows).toHaveLength(1);
    conversation = rows[0];
    expect(conversation).toMatchObject({ id: conversation!.id, unread: 3, lastInboundAt: later, lastActivityAt: later, lastPreview: "Is it in blue?" });
  });

  it("a message to a closed conversation reopens it and records who did: nobody (the contact)", async () => {
    const { db, workspaceId, senderId, from } = await setup();
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, new Date("2026-11-20T10:00:00Z"))]);
    const [conversation] = await conversationOf(workspaceId);
    await db.update(conversations).set({ status: "closed", closedAt: new Date() }).where(eq(conversations.id, conversation!.id));
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, new Date("2026-11-20T11:00:00Z"), { kind: "media", text: null, media: { id: "m1", mimeType: "image/jpeg", caption: null, filename: null, kind: "image" } })]);
    const [after] = await conversationOf(workspaceId);
    expect(after).toMatchObject({ status: "open", closedAt: null, lastPreview: "image (image/jpeg)" });
    const events = await db.select().from(conversationEvents).where(eq(conversationEvents.conversationId, conversation!.id));
    expect(events).toMatchObject([{ kind: "reopened", actorUserId: null }]);
  });

  it("the same contact writing to two numbers has two conversations", async () => {
    const { db, workspaceId, senderId, from } = await setup();
    const otherId = newId("snd");
    await db.insert(senders).values({ id: otherId, workspaceId, name: "Second", provider: "sandbox", isDefault: false });
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, new Date())]);
    await recordInboundMessages(db, { workspaceId, senderId: otherId }, [inbound(from, new Date())]);
    expect((await conversationOf(workspaceId)).map((c) => c.senderId).sort()).toEqual([senderId, otherId].sort());
  });
});

describe("replies are attributed to a campaign message (the replied step)", () => {
  it("marks the latest campaign message sent on that number within the window, once, and names its campaign", async () => {
    const { db, workspaceId, senderId, from, contactId } = await setup();
    const at = new Date("2026-11-20T12:00:00Z");
    const campaignA = await createTestCampaign(workspaceId, { name: "A" });
    const campaignB = await createTestCampaign(workspaceId, { name: "B" });
    const older = await createTestMessage({ workspaceId, campaignId: campaignA, contactId, senderId, phoneNumber: from, status: "delivered", sentAt: new Date(at.getTime() - 5 * HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    const latest = await createTestMessage({ workspaceId, campaignId: campaignB, contactId, senderId, phoneNumber: from, status: "read", sentAt: new Date(at.getTime() - HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, at)]);
    expect(outcome.messages[0]!.campaignId).toBe(campaignB);
    expect(await repliedAt(latest)).toEqual(at);
    expect(await repliedAt(older)).toBeNull();
    const [stored] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, outcome.messages[0]!.id));
    expect(stored!.campaignId).toBe(campaignB);
    expect((await conversationOf(workspaceId))[0]!.campaignId).toBe(campaignB);

    // A second reply leaves the first reply's time.
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, new Date(at.getTime() + HOUR))]);
    expect(await repliedAt(latest)).toEqual(at);
  });

  it("a quoted campaign message wins over a later one; messages outside the window, on another number or test sends are not attributed", async () => {
    const { db, workspaceId, senderId, from, contactId } = await setup();
    await db.update(workspaces).set({ replyAttributionHours: 24 }).where(eq(workspaces.id, workspaceId));
    const at = new Date("2026-11-20T12:00:00Z");
    const quotedWamid = `wamid.${randomBase62(10)}`;
    const quoted = await createTestMessage({ workspaceId, contactId, senderId, phoneNumber: from, status: "delivered", sentAt: new Date(at.getTime() - 3 * HOUR), providerMessageId: quotedWamid });
    const later = await createTestMessage({ workspaceId, contactId, senderId, phoneNumber: from, status: "delivered", sentAt: new Date(at.getTime() - HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, at, { contextProviderMessageId: quotedWamid })]);
    expect(await repliedAt(quoted)).toEqual(at);
    expect(await repliedAt(later)).toBeNull();

    const second = await setup();
    const stale = await createTestMessage({ workspaceId: second.workspaceId, contactId: second.contactId, senderId: second.senderId, phoneNumber: second.from, status: "delivered", sentAt: new Date(at.getTime() - 73 * HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    const otherNumber = await createTestMessage({ workspaceId: second.workspaceId, contactId: second.contactId, senderId: newId("snd"), phoneNumber: second.from, status: "delivered", sentAt: new Date(at.getTime() - HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    const testSend = await createTestMessage({ workspaceId: second.workspaceId, contactId: second.contactId, senderId: second.senderId, phoneNumber: second.from, status: "delivered", sentAt: new Date(at.getTime() - HOUR), providerMessageId: `wamid.${randomBase62(10)}` });
    await db.update(messages).set({ source: "test" }).where(eq(messages.id, testSend));
    const outcome = await recordInboundMessages(db, { workspaceId: second.workspaceId, senderId: second.senderId }, [inbound(second.from, at)]);
    expect(outcome.messages[0]!.campaignId).toBeNull();
    for (const id of [stale, otherNumber, testSend]) expect(await repliedAt(id)).toBeNull();
    const [conversation] = await conversationOf(second.workspaceId);
    expect(conversation!.campaignId).toBeNull();
    expect(await db.select().from(inboundMessages).where(and(eq(inboundMessages.workspaceId, second.workspaceId), eq(inboundMessages.campaignId, "x")))).toEqual([]);
  });
});
