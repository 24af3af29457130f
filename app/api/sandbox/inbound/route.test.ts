import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, inboundMessages, messages, workspaces } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { problemType } from "@/lib/http/problem";
import { createSender } from "@/lib/senders/collection";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { connectTestWhatsAppSender, createTestMessage } from "@/lib/testing/messaging-factories";
import { GET, POST } from "./route";

const URL = "/api/sandbox/inbound";

async function account() {
  const owner = await createApiAccount();
  return { ...owner, cookie: await sessionCookie(owner) };
}

async function contact(workspaceId: string, phone = "+14155552671") {
  const db = await getDb();
  const id = newId("ctc");
  await db.insert(contacts).values({ id, workspaceId, phoneNumber: phone, name: "Jane" });
  return id;
}

const consent = async (id: string) => {
  const db = await getDb();
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
  return row!;
};

const reply = (cookie: string, body: unknown) => callRoute(POST, "POST", URL, { cookie, headers: SAME_ORIGIN, body });

describe("sandbox: simulate a reply", () => {
  it("STOP opts the contact out through the webhook's handler, START opts it back in, other text changes nothing", async () => {
    const owner = await account();
    const id = await contact(owner.workspaceId);
    const stop = await reply(owner.cookie, { contactId: id, text: "stop" });
    expect(stop).toMatchObject({ status: 200, body: { contactId: id, action: "opted_out", changed: true, optedOut: true } });
    expect(await consent(id)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP" });

    expect((await reply(owner.cookie, { contactId: id, text: "Thanks!" })).body).toMatchObject({ action: "none", changed: false, optedOut: true });
    expect((await reply(owner.cookie, { contactId: id, text: "STOP" })).body).toMatchObject({ action: "opted_out", changed: false });
    expect((await reply(owner.cookie, { contactId: id, text: "START" })).body).toMatchObject({ action: "opted_in", changed: true, optedOut: false });
    expect(await consent(id)).toMatchObject({ optedOutAt: null, optOutMethod: null });
  });

  it("simulates every inbound kind, stored like a real one; Stop promotions opts out; a reply can answer a sent message", async () => {
    const owner = await account();
    const id = await contact(owner.workspaceId);
    const db = await getDb();
    const wamid = `wamid.SANDBOX.OUT${newId("x")}`;
    const messageId = await createTestMessage({ workspaceId: owner.workspaceId, phoneNumber: "+14155552671", status: "delivered", providerMessageId: wamid });
    const [sent] = await db.select({ campaignId: messages.campaignId }).from(messages).where(eq(messages.id, messageId));
    const bodies = [
      { contactId: id, text: "Where is my parcel?", replyToMessageId: messageId },
      { contactId: id, kind: "interactive", text: "Tomorrow", payload: "slot-2" },
      { contactId: id, kind: "media", mediaType: "image", mimeType: "image/jpeg", caption: "Receipt" },
      { contactId: id, kind: "location", latitude: 48.85, longitude: 2.35, name: "Office" },
      { contactId: id, kind: "reaction", emoji: "👍", replyToMessageId: messageId },
      { contactId: id, kind: "button", text: "Stop promotions", replyToMessageId: messageId },
    ];
    const answers = [];
    for (const body of bodies) {
      const response = await reply(owner.cookie, body);
      expect(response.status).toBe(200);
      answers.push(response.body as { kind: string; action: string; replyToMessageId: string | null; campaignId: string | null; inboundMessageId: string });
    }
    expect(answers.map((a) => [a.kind, a.action, a.replyToMessageId])).toEqual([
      ["text", "none", messageId],
      ["interactive", "none", null],
      ["media", "none", null],
      ["location", "none", null],
      ["reaction", "none", messageId],
      ["button", "opted_out", messageId],
    ]);
    expect(answers[0]!.campaignId).toBe(sent!.campaignId);
    expect(await consent(id)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP PROMOTIONS" });
    const rows = await db.select().from(inboundMessages).where(eq(inboundMessages.contactId, id));
    expect(rows).toHaveLength(6);
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]));
    expect(byKind.media).toMatchObject({ text: "Receipt", media: { mimeType: "image/jpeg", caption: "Receipt", kind: "image" } });
    expect(byKind.location).toMatchObject({ location: { latitude: 48.85, longitude: 2.35, name: "Office", address: null } });
    expect(byKind.reaction).toMatchObject({ text: "👍", reaction: { emoji: "👍", providerMessageId: wamid } });
    expect(byKind.button).toMatchObject({ text: "Stop promotions", payload: "Stop promotions", contextProviderMessageId: wamid });
  });

  it("a reply answers only a sent message of this contact in the workspace; a reaction needs one", async () => {
    const owner = await account();
    const intruder = await account();
    const id = await contact(owner.workspaceId);
    const queued = await createTestMessage({ workspaceId: owner.workspaceId, phoneNumber: "+14155552671" });
    const otherContact = await createTestMessage({ workspaceId: owner.workspaceId, phoneNumber: "+14155550000", status: "sent", providerMessageId: `wamid.X${newId("x")}` });
    const foreign = await createTestMessage({ workspaceId: intruder.workspaceId, phoneNumber: "+14155552671", status: "sent", providerMessageId: `wamid.X${newId("x")}` });
    expect((await reply(owner.cookie, { contactId: id, text: "Hi", replyToMessageId: foreign })).status).toBe(404);
    for (const [replyToMessageId, code] of [
      [queued, "not_sent"],
      [otherContact, "other_contact"],
    ]) {
      const response = await reply(owner.cookie, { contactId: id, text: "Hi", replyToMessageId });
      expect(response.status).toBe(422);
      expect((response.body as { errors: { path: string; code: string }[] }).errors).toEqual([expect.objectContaining({ path: "replyToMessageId", code })]);
    }
    const reaction = await reply(owner.cookie, { contactId: id, kind: "reaction", emoji: "👍" });
    expect(reaction.status).toBe(422);
    expect((reaction.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain("replyToMessageId");
    const badKind = await reply(owner.cookie, { contactId: id, kind: "sticker", text: "x" });
    expect(badKind.status).toBe(422);
    const badMedia = await reply(owner.cookie, { contactId: id, kind: "media", mediaType: "image", mimeType: "jpeg", caption: "x", latitude: 1 });
    expect((badMedia.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual(["latitude", "mimeType"]);
    const db = await getDb();
    expect(await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, owner.workspaceId))).toEqual([]);
  });

  it("uses the workspace's own keywords", async () => {
    const owner = await account();
    const db = await getDb();
    await db.update(workspaces).set({ optOutKeywords: ["ARRET"] }).where(eq(workspaces.id, owner.workspaceId));
    const id = await contact(owner.workspaceId);
    expect((await reply(owner.cookie, { contactId: id, text: "Arret" })).body).toMatchObject({ action: "opted_out", optedOut: true });
    expect(await consent(id)).toMatchObject({ optOutDetail: "ARRET" });
  });

  it("answers another workspace's contact with 404, like a missing one, and touches nothing", async () => {
    const owner = await account();
    const intruder = await account();
    const id = await contact(owner.workspaceId);
    for (const contactId of [id, "ctc_doesnotexist"]) {
      const response = await reply(intruder.cookie, { contactId, text: "STOP" });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await consent(id)).optedOutAt).toBeNull();
    const db = await getDb();
    const created = await db.select().from(contacts).where(and(eq(contacts.workspaceId, intruder.workspaceId), eq(contacts.phoneNumber, "+14155552671")));
    expect(created).toEqual([]);
  });

  it("409 once the workspace sends through WhatsApp", async () => {
    const owner = await account();
    const id = await contact(owner.workspaceId);
    await connectTestWhatsAppSender(owner.workspaceId);
    const response = await reply(owner.cookie, { contactId: id, text: "STOP" });
    expect(response).toMatchObject({ status: 409, body: { type: problemType("sandbox_only") } });
    expect((await consent(id)).optedOutAt).toBeNull();
  });

  it("lands on the workspace's sandbox sender when its default sender is a WhatsApp number", async () => {
    const owner = await account();
    const id = await contact(owner.workspaceId);
    await connectTestWhatsAppSender(owner.workspaceId);
    const db = await getDb();
    const sandbox = await createSender(db, owner.workspaceId, { provider: "sandbox", name: "Test number" });
    const response = await reply(owner.cookie, { contactId: id, text: "STOP!" });
    expect(response).toMatchObject({ status: 200, body: { action: "opted_out", changed: true, optedOut: true } });
    const stored = await db.select({ senderId: inboundMessages.senderId }).from(inboundMessages).where(eq(inboundMessages.workspaceId, owner.workspaceId));
    expect(stored).toEqual([{ senderId: sandbox.id }]);
  });

  it("validates the body, refuses keys and cross-site posts, and allows only POST", async () => {
    const owner = await account();
    const id = await contact(owner.workspaceId);
    for (const [body, path] of [
      [{ contactId: id, text: "   " }, "text"],
      [{ contactId: id }, "text"],
      [{ text: "STOP" }, "contactId"],
      [{ contactId: id, text: "STOP", from: "+1" }, "from"],
    ] as const) {
      const response = await reply(owner.cookie, body);
      expect(response.status).toBe(422);
      expect((response.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
    }
    expect((await callRoute(POST, "POST", URL, { key: owner.key, body: { contactId: id, text: "STOP" } })).status).toBe(401);
    const crossSite = await callRoute(POST, "POST", URL, { cookie: owner.cookie, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, body: { contactId: id, text: "STOP" } });
    expect(crossSite.status).toBe(403);
    expect((await consent(id)).optedOutAt).toBeNull();
    expect((await callRoute(GET, "GET", URL, { cookie: owner.cookie })).status).toBe(405);
  });
});
