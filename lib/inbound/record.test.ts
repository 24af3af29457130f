import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, contacts, inboundMessages, senders, throughputLanes } from "@/db/schema";
import type { InboundMessage } from "@/lib/channels/types";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createSharedThroughputLimiter, intervalUs, senderLane } from "@/lib/messaging/throughput";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, testInboundMessage } from "@/lib/testing/messaging-factories";
import { consentOf, recordInboundMessages } from "./record";

const phone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

const inbound = (from: string, overrides: Partial<InboundMessage> = {}) => testInboundMessage(from, { at: new Date("2026-11-20T10:00:00Z"), ...overrides });

async function scope() {
  const db = await getDb();
  const account = await createTestAccount();
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
  return { db, workspaceId: account.workspaceId, senderId: sender!.id };
}

async function storedOf(workspaceId: string) {
  const db = await getDb();
  return db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspaceId));
}

async function contactOf(workspaceId: string, p: string) {
  const db = await getDb();
  const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.phoneNumber, p)));
  return row ?? null;
}

describe("recordInboundMessages: storage", () => {
  it("stores a message once, links the known contact, and a redelivery changes nothing", async () => {
    const { db, workspaceId, senderId } = await scope();
    const from = phone();
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId, phoneNumber: from, name: "Ann" });
    const message = inbound(from, { profileName: "Someone else" });
    const first = await recordInboundMessages(db, { workspaceId, senderId }, [message]);
    expect(first).toMatchObject({ stored: 1, duplicates: 0, messages: [{ stored: true, contactId, contactCreated: false }] });
    const [row] = await storedOf(workspaceId);
    expect(row).toMatchObject({ senderId, contactId, phoneNumber: from, providerMessageId: message.providerMessageId, kind: "text", text: "Hello", receivedAt: message.at });
    expect(row!.id).toBe(first.messages[0]!.id);

    const again = await recordInboundMessages(db, { workspaceId, senderId }, [message, message]);
    expect(again).toMatchObject({ stored: 0, duplicates: 2, messages: [{ id: row!.id, stored: false, contactId }, { id: row!.id, stored: false }] });
    expect(await storedOf(workspaceId)).toEqual([row]);
    expect((await contactOf(workspaceId, from))?.name).toBe("Ann");
  });

  it("a message repeated within one batch is stored once", async () => {
    const { db, workspaceId, senderId } = await scope();
    const message = inbound(phone());
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [message, message]);
    expect(outcome).toMatchObject({ stored: 1, duplicates: 1 });
    expect(outcome.messages[0]!.id).toBe(outcome.messages[1]!.id);
    expect(await storedOf(workspaceId)).toHaveLength(1);
  });

  it("an unknown number becomes a contact named after its profile; the same message id in another workspace is another message", async () => {
    const a = await scope();
    const b = await scope();
    const from = phone();
    const message = inbound(from, { profileName: " Bea " });
    const outcome = await recordInboundMessages(a.db, a, [message, inbound(from)]);
    expect(outcome.messages.map((m) => m.contactCreated)).toEqual([true, true]);
    const contact = await contactOf(a.workspaceId, from);
    expect(contact).toMatchObject({ name: "Bea", optedOutAt: null });
    expect(outcome.messages.map((m) => m.contactId)).toEqual([contact!.id, contact!.id]);
    expect(await recordInboundMessages(b.db, b, [message])).toMatchObject({ stored: 1 });
    expect((await contactOf(b.workspaceId, from))?.id).not.toBe(contact!.id);
  });

  it("links a reply to the outbound message it answers and its campaign, in the workspace only", async () => {
    const { db, workspaceId, senderId } = await scope();
    const other = await scope();
    const wamid = `wamid.OUT${randomBase62(16)}`;
    const messageId = await createTestMessage({ workspaceId, status: "delivered", providerMessageId: wamid });
    const [{ campaignId }] = (await db.query.messages.findMany({ where: (m, { eq }) => eq(m.id, messageId), columns: { campaignId: true } })) as [{ campaignId: string }];
    const from = phone();
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [
      inbound(from, { contextProviderMessageId: wamid }),
      inbound(from, { kind: "reaction", text: "👍", reaction: { emoji: "👍", providerMessageId: wamid } }),
      inbound(from, { contextProviderMessageId: "wamid.UNKNOWN" }),
    ]);
    expect(outcome.messages.map((m) => [m.replyToMessageId, m.campaignId])).toEqual([
      [messageId, campaignId],
      [messageId, campaignId],
      [null, null],
    ]);
    const rows = await storedOf(workspaceId);
    expect(rows.find((row) => row.kind === "text" && row.replyToMessageId)).toMatchObject({ contextProviderMessageId: wamid, campaignId });
    expect(rows.find((row) => row.contextProviderMessageId === "wamid.UNKNOWN")).toMatchObject({ replyToMessageId: null, campaignId: null });

    // Another workspace naming this wamid as context is not linked to it.
    const foreign = await recordInboundMessages(other.db, other, [inbound(from, { contextProviderMessageId: wamid })]);
    expect(foreign.messages[0]).toMatchObject({ replyToMessageId: null, campaignId: null });
  });

  it("stores every kind with its details", async () => {
    const { db, workspaceId, senderId } = await scope();
    const from = phone();
    const media = { id: "1234", mimeType: "image/jpeg", caption: "My receipt", filename: null, kind: "image" as const };
    const location = { latitude: 48.8566, longitude: 2.3522, name: "Office", address: "1 Rue X" };
    await recordInboundMessages(db, { workspaceId, senderId }, [
      inbound(from, { kind: "button", text: "Track order", payload: "TRACK" }),
      inbound(from, { kind: "interactive", text: "Tomorrow", payload: "slot-2" }),
      inbound(from, { kind: "media", text: "My receipt", media }),
      inbound(from, { kind: "location", text: null, location }),
      inbound(from, { kind: "reaction", text: "❤️", reaction: { emoji: "❤️", providerMessageId: "wamid.X" } }),
      inbound(from, { kind: "unsupported", text: null }),
    ]);
    const rows = await storedOf(workspaceId);
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]));
    expect(byKind.button).toMatchObject({ text: "Track order", payload: "TRACK" });
    expect(byKind.interactive).toMatchObject({ text: "Tomorrow", payload: "slot-2" });
    expect(byKind.media).toMatchObject({ text: "My receipt", media });
    expect(byKind.location).toMatchObject({ text: null, location });
    expect(byKind.reaction).toMatchObject({ reaction: { emoji: "❤️", providerMessageId: "wamid.X" }, replyToMessageId: null });
    expect(byKind.unsupported).toMatchObject({ text: null, media: null });
  });

  it("stores text the database cannot hold with the odd characters replaced, never failing the batch", async () => {
    const { db, workspaceId, senderId } = await scope();
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [
      inbound(phone(), { text: "a\u0000b", profileName: "\ud800x" }),
      inbound(phone(), { kind: "media", text: null, media: { id: "1", mimeType: "image/png", caption: "c\u0000", filename: null, kind: "image" } }),
    ]);
    expect(outcome.stored).toBe(2);
    const rows = await storedOf(workspaceId);
    expect(rows.map((row) => row.text ?? row.media?.caption).sort()).toEqual(["a\ufffdb", "c\ufffd"]);
  });
});

describe("recordInboundMessages: consent", () => {
  it("STOP! with punctuation or emoji opts out, once per message; a caption or a longer text does not", async () => {
    const { db, workspaceId, senderId } = await scope();
    const [a, b, c, d] = [phone(), phone(), phone(), phone()];
    const stop = inbound(a, { text: "STOP!" });
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [
      stop,
      inbound(b, { text: "stop 🙏" }),
      inbound(c, { kind: "media", text: "STOP", media: { id: "1", mimeType: "image/png", caption: "STOP", filename: null, kind: "image" } }),
      inbound(d, { text: "please stop" }),
    ]);
    expect(outcome.messages.map((m) => m.consent.action)).toEqual(["opted_out", "opted_out", "none", "none"]);
    expect(await contactOf(workspaceId, a)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP" });
    expect(await contactOf(workspaceId, b)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP" });
    expect((await contactOf(workspaceId, c))?.optedOutAt).toBeNull();
    expect((await contactOf(workspaceId, d))?.optedOutAt).toBeNull();

    await recordInboundMessages(db, { workspaceId, senderId }, [stop]);
    const audit = await db.select().from(auditEvents).where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.action, "contact.opted_out")));
    expect(audit).toHaveLength(2);
  });

  it("Meta's Stop promotions button opts out, by its text or its payload", async () => {
    const { db, workspaceId, senderId } = await scope();
    const [a, b, c] = [phone(), phone(), phone()];
    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [
      inbound(a, { kind: "button", text: "Stop promotions", payload: "Stop promotions" }),
      inbound(b, { kind: "button", text: "Stop Promotions", payload: "opt-out-123" }),
      inbound(c, { kind: "text", text: "Stop promotions" }),
    ]);
    expect(outcome.messages.map((m) => m.consent.action)).toEqual(["opted_out", "opted_out", "none"]);
    expect(await contactOf(workspaceId, a)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP PROMOTIONS" });
    expect(await contactOf(workspaceId, b)).toMatchObject({ optOutDetail: "STOP PROMOTIONS" });
    expect((await contactOf(workspaceId, c))?.optedOutAt).toBeNull();
  });

  it("a late STOP older than an applied START changes nothing", async () => {
    const { db, workspaceId, senderId } = await scope();
    const from = phone();
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "Stop.", at: new Date("2026-11-20T10:00:00Z") })]);
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "start", at: new Date("2026-11-20T10:05:00Z") })]);
    await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "STOP", at: new Date("2026-11-20T10:01:00Z") })]);
    expect((await contactOf(workspaceId, from))?.optedOutAt).toBeNull();
  });

  it("consentOf reads buttons and interactive replies by title or id, never captions or reactions", () => {
    expect(consentOf({ kind: "interactive", text: "Unsubscribe me", payload: "UNSUBSCRIBE" }, [])).toEqual({ action: "opt_out", keyword: "UNSUBSCRIBE" });
    expect(consentOf({ kind: "button", text: "Arrêt", payload: null }, ["ARRÊT"])).toEqual({ action: "opt_out", keyword: "ARRÊT" });
    expect(consentOf({ kind: "reaction", text: "STOP", payload: null }, [])).toBeNull();
    expect(consentOf({ kind: "media", text: "STOP", payload: null }, [])).toBeNull();
  });
});

describe("recordInboundMessages: throughput", () => {
  it("each new inbound message takes a slot of the sender's rate lane; a redelivery takes none", async () => {
    const { db, workspaceId, senderId } = await scope();
    await db.update(senders).set({ throughputPerSecond: 20 }).where(eq(senders.id, senderId));
    const now = 1_000_000;
    const batch = [inbound(phone()), inbound(phone()), inbound(phone())];
    await recordInboundMessages(db, { workspaceId, senderId }, batch, { now: () => now });
    const lane = async () => (await db.select().from(throughputLanes).where(eq(throughputLanes.key, senderLane(senderId))))[0];
    expect(Number((await lane())!.nextSlotUs)).toBe(now * 1000 + 3 * intervalUs(20));
    await recordInboundMessages(db, { workspaceId, senderId }, batch, { now: () => now });
    expect(Number((await lane())!.nextSlotUs)).toBe(now * 1000 + 3 * intervalUs(20));
    // The dispatcher's next send on this number comes after them.
    expect(await createSharedThroughputLimiter(db).reserve(senderLane(senderId), 20, 1, now)).toBeCloseTo(now + (3 * intervalUs(20)) / 1000, 3);
  });
});
