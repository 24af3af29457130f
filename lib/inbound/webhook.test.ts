import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/webhooks/whatsapp/route";
import { getDb } from "@/db";
import { getChannel } from "@/lib/channels";
import { contacts, inboundMessages, messages, senders, workspaces } from "@/db/schema";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage, connectTestWhatsAppSender, type TestWhatsAppSender } from "@/lib/testing/messaging-factories";
import { applyInboxedStatuses } from "@/lib/outbox/status-inbox";
import { WEBHOOK_MAX_STATUSES } from "./webhook";

const signPayload = (raw: string, secret: string) => getChannel("whatsapp").webhook!.sign(raw, secret);

const ctx = { params: Promise.resolve({}) };
const URL_BASE = "http://localhost/api/webhooks/whatsapp";

interface StatusInput {
  id: string;
  status: string;
  timestamp?: number;
  errors?: unknown[];
}

/** A WhatsApp webhook body with one `messages` change for the sender's number, carrying `value`'s members. */
function envelope<V extends object>(sender: Pick<TestWhatsAppSender, "phoneNumberId" | "wabaId">, value: V) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: sender.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

function payload(sender: Pick<TestWhatsAppSender, "phoneNumberId" | "wabaId">, statuses: StatusInput[]) {
  return envelope(sender, {
    statuses: statuses.map((s) => ({ recipient_id: "14155550126", timestamp: String(s.timestamp ?? Math.floor(Date.now() / 1000)), ...s })),
  });
}

type InboundInput = { from: string; id?: string } & (
  | { type: "text"; body: string }
  | { type: "button"; text: string }
  | { type: "interactive"; title: string }
);

function inboundPayload(sender: Pick<TestWhatsAppSender, "phoneNumberId" | "wabaId">, replies: InboundInput[]) {
  const messages = replies.map((reply) => {
    const base = { from: reply.from, id: reply.id ?? `wamid.IN${randomBase62(16)}`, timestamp: String(Math.floor(Date.now() / 1000)), type: reply.type };
    if (reply.type === "text") return { ...base, text: { body: reply.body } };
    if (reply.type === "button") return { ...base, button: { text: reply.text, payload: reply.text } };
    return { ...base, interactive: { type: "button_reply", button_reply: { id: "b1", title: reply.title } } };
  });
  return envelope(sender, { contacts: replies.map((reply) => ({ profile: { name: "Someone" }, wa_id: reply.from })), messages });
}

async function deliver(body: unknown, secret: string | null, raw = JSON.stringify(body)) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (secret !== null) headers["x-hub-signature-256"] = signPayload(raw, secret);
  return POST(new Request(URL_BASE, { method: "POST", headers, body: raw }), ctx);
}

async function setup() {
  const account = await createTestAccount();
  const sender = await connectTestWhatsAppSender(account.workspaceId);
  const wamid = `wamid.TEST${Math.random().toString(36).slice(2)}`;
  const id = await createTestMessage({ workspaceId: account.workspaceId, status: "sent", providerMessageId: wamid, sentAt: new Date(Date.now() - 60_000) });
  return { account, sender, wamid, id };
}

describe("GET handshake", () => {
  it("answers the bare challenge as text/plain when the verify token matches a sender", async () => {
    const { sender } = await setup();
    const response = await GET(new Request(`${URL_BASE}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${sender.verifyToken}`), ctx);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("1158201444");
  });

  it("refuses a wrong token, a wrong mode or a missing challenge with 403", async () => {
    const { sender } = await setup();
    for (const query of [
      `hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong`,
      `hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${sender.verifyToken}`,
      `hub.mode=subscribe&hub.verify_token=${sender.verifyToken}`,
      `hub.mode=subscribe&hub.challenge=1`,
    ]) {
      const response = await GET(new Request(`${URL_BASE}?${query}`), ctx);
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/problem\+json/);
    }
  });
});

describe("POST signature", () => {
  it("applies a correctly signed status", async () => {
    const { sender, wamid, id } = await setup();
    const response = await deliver(payload(sender, [{ id: wamid, status: "delivered" }]), sender.appSecret);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, applied: 1 });
    expect((await getTestMessage(id)).status).toBe("delivered");
  });

  it("answers 401 and changes nothing for a missing, wrong or other-secret signature", async () => {
    const { sender, wamid, id } = await setup();
    const body = payload(sender, [{ id: wamid, status: "read" }]);
    expect((await deliver(body, null)).status).toBe(401);
    expect((await deliver(body, "not-the-app-secret")).status).toBe(401);
    const raw = JSON.stringify(body);
    const badHeader = await POST(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=zz" }, body: raw }),
      ctx,
    );
    expect(badHeader.status).toBe(401);
    // Signed over different bytes than those sent (re-serialised JSON does not verify).
    const tampered = await POST(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(raw, sender.appSecret) }, body: JSON.stringify(body, null, 2) }),
      ctx,
    );
    expect(tampered.status).toBe(401);
    expect((await getTestMessage(id)).status).toBe("sent");
  });

  it("verifies over the exact raw bytes, including escaped unicode", async () => {
    const { sender, wamid, id } = await setup();
    const raw = JSON.stringify(payload(sender, [{ id: wamid, status: "delivered" }])).replace('"messages"', '"m\\u0065ssages"');
    expect((await deliver(null, sender.appSecret, raw)).status).toBe(200);
    expect((await getTestMessage(id)).status).toBe("delivered");
  });

  it("does not let one workspace's signed webhook change another workspace's message", async () => {
    const victim = await setup();
    const attacker = await setup();
    // The attacker signs with their own secret and names their own number, but the victim's wamid.
    const response = await deliver(payload(attacker.sender, [{ id: victim.wamid, status: "failed", errors: [{ code: 131026, message: "x" }] }]), attacker.sender.appSecret);
    expect(response.status).toBe(200);
    expect(await getTestMessage(victim.id)).toMatchObject({ status: "sent", errorCode: null });
  });

  it("rejects a non-JSON body with 415 and malformed JSON with 400", async () => {
    const { sender } = await setup();
    const text = await POST(new Request(URL_BASE, { method: "POST", headers: { "content-type": "text/plain", "x-hub-signature-256": signPayload("x", sender.appSecret) }, body: "x" }), ctx);
    expect(text.status).toBe(415);
    const broken = await POST(new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": signPayload("{", sender.appSecret) }, body: "{" }), ctx);
    expect(broken.status).toBe(400);
  });
});

describe("POST status ordering", () => {
  it("read without delivered fills delivered_at; a late delivered, sent or duplicate changes nothing", async () => {
    const { sender, wamid, id } = await setup();
    const readAt = Math.floor(Date.now() / 1000) - 10;
    await deliver(payload(sender, [{ id: wamid, status: "read", timestamp: readAt }]), sender.appSecret);
    const read = await getTestMessage(id);
    expect(read).toMatchObject({ status: "read", readAt: new Date(readAt * 1000), deliveredAt: new Date(readAt * 1000) });

    const late = await deliver(payload(sender, [{ id: wamid, status: "delivered", timestamp: readAt - 5 }, { id: wamid, status: "sent" }, { id: wamid, status: "read" }]), sender.appSecret);
    expect(await late.json()).toMatchObject({ applied: 0, ignored: 3 });
    expect(await getTestMessage(id)).toMatchObject({ status: "read", readAt: read.readAt, deliveredAt: read.deliveredAt, sentAt: read.sentAt });
  });

  it("a skipped message is final: no reported status changes it", async () => {
    const { account, sender } = await setup();
    const wamid = `wamid.SKIP${Math.random().toString(36).slice(2)}`;
    const id = await createTestMessage({ workspaceId: account.workspaceId, status: "skipped", providerMessageId: wamid });
    const response = await deliver(
      payload(sender, [{ id: wamid, status: "sent" }, { id: wamid, status: "delivered" }, { id: wamid, status: "read" }, { id: wamid, status: "failed", errors: [{ code: 131026, message: "x" }] }]),
      sender.appSecret,
    );
    expect(await response.json()).toMatchObject({ applied: 0, ignored: 4 });
    expect(await getTestMessage(id)).toMatchObject({ status: "skipped", sentAt: null, deliveredAt: null, readAt: null, failedAt: null });
  });

  it("failed keeps Meta's code and message", async () => {
    const { sender, wamid, id } = await setup();
    await deliver(
      payload(sender, [{ id: wamid, status: "failed", errors: [{ code: 131049, title: "Message not delivered", message: "This message was not delivered to maintain healthy ecosystem engagement.", error_data: { details: "Per-user marketing limit." } }] }]),
      sender.appSecret,
    );
    const row = await getTestMessage(id);
    expect(row).toMatchObject({ status: "failed", errorCode: "131049" });
    expect(row.errorReason).toBe("This message was not delivered to maintain healthy ecosystem engagement.: Per-user marketing limit.");
    expect(row.failedAt).toBeInstanceOf(Date);
  });

  it("a failed arriving after delivered is ignored; a delivered arriving after failed wins and clears the error", async () => {
    const first = await setup();
    await deliver(payload(first.sender, [{ id: first.wamid, status: "delivered" }, { id: first.wamid, status: "failed", errors: [{ code: 131000, message: "Something went wrong" }] }]), first.sender.appSecret);
    expect(await getTestMessage(first.id)).toMatchObject({ status: "delivered", errorCode: null, failedAt: null });

    const second = await setup();
    await deliver(payload(second.sender, [{ id: second.wamid, status: "failed", errors: [{ code: 131000, message: "Something went wrong" }] }]), second.sender.appSecret);
    expect((await getTestMessage(second.id)).status).toBe("failed");
    await deliver(payload(second.sender, [{ id: second.wamid, status: "delivered" }]), second.sender.appSecret);
    expect(await getTestMessage(second.id)).toMatchObject({ status: "delivered", errorCode: null, errorReason: null, failedAt: null });
  });

  it("a duplicate failed keeps the first failure time; unknown wamids and other statuses are ignored", async () => {
    const { sender, wamid, id } = await setup();
    const t = Math.floor(Date.now() / 1000) - 30;
    await deliver(payload(sender, [{ id: wamid, status: "failed", timestamp: t, errors: [{ code: 131026, message: "Message undeliverable" }] }]), sender.appSecret);
    const response = await deliver(
      payload(sender, [
        { id: wamid, status: "failed", timestamp: t + 20, errors: [{ code: 131026, message: "Message undeliverable" }] },
        { id: "wamid.UNKNOWN", status: "delivered" },
        { id: wamid, status: "played" },
      ]),
      sender.appSecret,
    );
    expect(response.status).toBe(200);
    expect(await getTestMessage(id)).toMatchObject({ status: "failed", failedAt: new Date(t * 1000), errorCode: "131026" });
  });
});

describe("POST batches and held statuses", () => {
  it("applies a mixed batch of known and unknown wamids, holds the unknown ones, and applies them once the wamid is stored", async () => {
    const { account, sender, wamid, id } = await setup();
    const early = `wamid.EARLY${randomBase62(12)}`;
    const pendingId = await createTestMessage({ workspaceId: account.workspaceId, status: "sending" });
    const deliveredAt = Math.floor(Date.now() / 1000) - 5;
    const response = await deliver(
      payload(sender, [
        { id: early, status: "delivered", timestamp: deliveredAt },
        { id: wamid, status: "read", timestamp: deliveredAt + 1 },
        { id: wamid, status: "delivered", timestamp: deliveredAt },
        { id: early, status: "sent", timestamp: deliveredAt - 1 },
      ]),
      sender.appSecret,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, applied: 2, ignored: 0, pending: 2, replies: 0, inbound: 0 });
    expect(await getTestMessage(id)).toMatchObject({ status: "read", deliveredAt: new Date(deliveredAt * 1000), readAt: new Date((deliveredAt + 1) * 1000) });

    // The send's result is written after the webhook: the held statuses apply then.
    const db = await getDb();
    await db.update(messages).set({ status: "sent", providerMessageId: early, sentAt: new Date() }).where(eq(messages.id, pendingId));
    expect(await applyInboxedStatuses(db, { providerMessageIds: [early] })).toBe(1);
    expect(await getTestMessage(pendingId)).toMatchObject({ status: "delivered", deliveredAt: new Date(deliveredAt * 1000) });
  });

  it("refuses more than WEBHOOK_MAX_STATUSES statuses in one request with 413 and applies none", async () => {
    const { sender, wamid, id } = await setup();
    const statuses = Array.from({ length: WEBHOOK_MAX_STATUSES + 1 }, (_, i) => ({ id: i === 0 ? wamid : `wamid.CAP${i}`, status: "delivered" }));
    const response = await deliver(payload(sender, statuses), sender.appSecret);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect((await response.json()).detail).toContain(`at most ${WEBHOOK_MAX_STATUSES}`);
    expect((await getTestMessage(id)).status).toBe("sent");

    const unsigned = await deliver(payload(sender, statuses), null);
    expect(unsigned.status).toBe(401);
  });
});

describe("POST inbound replies", () => {
  const digits = () => `1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

  async function contactOf(workspaceId: string, phone: string) {
    const db = await getDb();
    const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.phoneNumber, phone)));
    return row ?? null;
  }

  async function storedContact(workspaceId: string, phone: string) {
    const db = await getDb();
    await db.insert(contacts).values({ id: newId("ctc"), workspaceId, phoneNumber: phone, name: "Ann" });
  }

  it("STOP as text opts the contact out; START opts it back in", async () => {
    const { account, sender } = await setup();
    const from = digits();
    await storedContact(account.workspaceId, `+${from}`);
    const stop = await deliver(inboundPayload(sender, [{ from, type: "text", body: " stop " }]), sender.appSecret);
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({ received: true, replies: 1 });
    const out = await contactOf(account.workspaceId, `+${from}`);
    expect(out).toMatchObject({ name: "Ann", optOutMethod: "keyword", optOutDetail: "STOP" });
    expect(out?.optedOutAt).toBeInstanceOf(Date);

    await deliver(inboundPayload(sender, [{ from, type: "text", body: "START" }]), sender.appSecret);
    expect(await contactOf(account.workspaceId, `+${from}`)).toMatchObject({ optedOutAt: null, optOutMethod: null, optOutDetail: null });
  });

  it("UNSUBSCRIBE from a button and a workspace keyword from an interactive reply opt out", async () => {
    const { account, sender } = await setup();
    const db = await getDb();
    await db.update(workspaces).set({ optOutKeywords: ["ARRET"] }).where(eq(workspaces.id, account.workspaceId));
    const [a, b, c] = [digits(), digits(), digits()];
    for (const phone of [a, b, c]) await storedContact(account.workspaceId, `+${phone}`);
    const response = await deliver(
      inboundPayload(sender, [
        { from: a, type: "button", text: "Unsubscribe" },
        { from: b, type: "interactive", title: "arret" },
        { from: c, type: "text", body: "Thanks, see you" },
      ]),
      sender.appSecret,
    );
    expect(await response.json()).toMatchObject({ replies: 2 });
    expect(await contactOf(account.workspaceId, `+${a}`)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "UNSUBSCRIBE" });
    expect(await contactOf(account.workspaceId, `+${b}`)).toMatchObject({ optOutMethod: "keyword", optOutDetail: "ARRET" });
    expect((await contactOf(account.workspaceId, `+${c}`))?.optedOutAt).toBeNull();
  });

  it("accepts inbound messages that carry no words (a reaction, an image, a location) without changing consent", async () => {
    const { account, sender } = await setup();
    const from = digits();
    await storedContact(account.workspaceId, `+${from}`);
    const body = inboundPayload(sender, [{ from, type: "text", body: "placeholder" }]);
    const base = { from, timestamp: String(Math.floor(Date.now() / 1000)) };
    body.entry[0]!.changes[0]!.value.messages = [
      { ...base, id: `wamid.IN${randomBase62(16)}`, type: "reaction", reaction: { message_id: "wamid.OUT1", emoji: "🛑" } },
      { ...base, id: `wamid.IN${randomBase62(16)}`, type: "image", image: { id: "1479537139650973", mime_type: "image/jpeg", caption: "STOP" } },
      { ...base, id: `wamid.IN${randomBase62(16)}`, type: "location", location: { latitude: 51.5, longitude: -0.12 } },
    ] as never;
    const response = await deliver(body, sender.appSecret);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, replies: 0 });
    expect((await contactOf(account.workspaceId, `+${from}`))?.optedOutAt).toBeNull();
  });

  it("STOP from an unknown number creates the contact opted out; a duplicated delivery changes nothing", async () => {
    const { account, sender } = await setup();
    const from = digits();
    const body = inboundPayload(sender, [{ from, type: "text", body: "STOP", id: `wamid.DUP${randomBase62(10)}` }]);
    await deliver(body, sender.appSecret);
    const first = await contactOf(account.workspaceId, `+${from}`);
    expect(first).toMatchObject({ optOutMethod: "keyword", optOutDetail: "STOP", name: "Someone" });
    await deliver(body, sender.appSecret);
    expect(await contactOf(account.workspaceId, `+${from}`)).toEqual(first);
  });

  it("an unsigned or wrongly signed reply changes nothing, and one workspace's number cannot opt out another's contact", async () => {
    const victim = await setup();
    const attacker = await setup();
    const from = digits();
    await storedContact(victim.account.workspaceId, `+${from}`);
    const forged = inboundPayload(victim.sender, [{ from, type: "text", body: "STOP" }]);
    expect((await deliver(forged, null)).status).toBe(401);
    expect((await deliver(forged, attacker.sender.appSecret)).status).toBe(401);
    expect((await deliver(inboundPayload(attacker.sender, [{ from, type: "text", body: "STOP" }]), attacker.sender.appSecret)).status).toBe(200);
    expect((await contactOf(victim.account.workspaceId, `+${from}`))?.optedOutAt).toBeNull();
    expect(await contactOf(attacker.account.workspaceId, `+${from}`)).toMatchObject({ optOutDetail: "STOP" });
  });
});

describe("POST inbound messages stored", () => {
  const digits = () => `1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

  function change(sender: Pick<TestWhatsAppSender, "phoneNumberId" | "wabaId">, from: string, messages: Record<string, unknown>[]) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return envelope(sender, {
      contacts: [{ profile: { name: "Kai" }, wa_id: from }],
      messages: messages.map((message) => ({ from, id: `wamid.IN${randomBase62(16)}`, timestamp, ...message })),
    });
  }

  it("stores every kind on the number it arrived on, linked to the campaign message it answers; a redelivery stores nothing", async () => {
    const { account, sender, wamid, id } = await setup();
    const db = await getDb();
    const [owner] = await db.select({ id: senders.id }).from(senders).where(eq(senders.workspaceId, account.workspaceId));
    const from = digits();
    const body = change(sender, from, [
      { type: "text", text: { body: "Is it shipped?" }, context: { from: "15550783881", id: wamid } },
      { type: "button", button: { text: "Stop promotions", payload: "Stop promotions" }, context: { from: "15550783881", id: wamid } },
      { type: "interactive", interactive: { type: "list_reply", list_reply: { id: "slot-2", title: "Tomorrow" } } },
      { type: "document", document: { id: "9876", mime_type: "application/pdf", filename: "invoice.pdf" } },
      { type: "location", location: { latitude: 52.52, longitude: 13.405, name: "Home" } },
      { type: "reaction", reaction: { message_id: wamid, emoji: "👍" } },
      { type: "order", order: {} },
    ]);
    const response = await deliver(body, sender.appSecret);
    expect(await response.json()).toMatchObject({ inbound: 7, replies: 1 });
    const rows = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, account.workspaceId));
    expect(rows.map((row) => row.kind).sort()).toEqual(["button", "interactive", "location", "media", "reaction", "text", "unsupported"]);
    const [message] = await db.select({ campaignId: messages.campaignId }).from(messages).where(eq(messages.id, id));
    const contact = await db.select().from(contacts).where(and(eq(contacts.workspaceId, account.workspaceId), eq(contacts.phoneNumber, `+${from}`)));
    expect(contact).toHaveLength(1);
    expect(contact[0]).toMatchObject({ name: "Kai", optOutDetail: "STOP PROMOTIONS" });
    for (const row of rows) expect(row).toMatchObject({ senderId: owner!.id, contactId: contact[0]!.id, phoneNumber: `+${from}` });
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]));
    expect(byKind.text).toMatchObject({ text: "Is it shipped?", contextProviderMessageId: wamid, replyToMessageId: id, campaignId: message!.campaignId });
    expect(byKind.reaction).toMatchObject({ reaction: { emoji: "👍", providerMessageId: wamid }, replyToMessageId: id });
    expect(byKind.interactive).toMatchObject({ text: "Tomorrow", payload: "slot-2", replyToMessageId: null });
    expect(byKind.media).toMatchObject({ media: { id: "9876", mimeType: "application/pdf", filename: "invoice.pdf", caption: null, kind: "document" } });
    expect(byKind.location).toMatchObject({ location: { latitude: 52.52, longitude: 13.405, name: "Home", address: null } });

    const again = await deliver(body, sender.appSecret);
    expect(await again.json()).toMatchObject({ inbound: 0 });
    expect(await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, account.workspaceId))).toHaveLength(7);
  });
});
