import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../types";
import { parseWebhook, signPayload, verifySignature, whatsappWebhook } from "./webhook";

const AT = new Date(1750030073000);
const RECEIVED = new Date(1750030100000);

/** One `messages` change as Meta POSTs it, carrying `messages` from the contact +14155552671 ("Jessica"). */
function inbound(...messages: Record<string, unknown>[]) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              contacts: [{ profile: { name: "Jessica" }, wa_id: "14155552671" }],
              messages: messages.map((message, i) => ({ from: "14155552671", id: `wamid.IN${i}`, timestamp: "1750030073", ...message })),
            },
          },
        ],
      },
    ],
  };
}

const blank: Omit<InboundMessage, "providerMessageId" | "kind"> = {
  from: "+14155552671",
  profileName: "Jessica",
  at: AT,
  text: null,
  payload: null,
  media: null,
  location: null,
  reaction: null,
  contextProviderMessageId: null,
};

function only(body: unknown): InboundMessage {
  const [change] = parseWebhook(body, RECEIVED);
  expect(change!.inbound).toHaveLength(1);
  return change!.inbound[0]!;
}

describe("parseWebhook: inbound messages of every kind", () => {
  it("addresses the change by its number and account", () => {
    const [change] = parseWebhook(inbound({ type: "text", text: { body: "hi" } }), RECEIVED);
    expect(change).toMatchObject({ address: "106540352242922", account: "102290129340398", statuses: [] });
  });

  it("text", () => {
    expect(only(inbound({ type: "text", text: { body: "STOP!" } }))).toEqual({ ...blank, providerMessageId: "wamid.IN0", kind: "text", text: "STOP!" });
  });

  it("a quick-reply button: its label and payload, and the template message it answers", () => {
    const message = only(
      inbound({
        type: "button",
        context: { from: "15550783881", id: "wamid.HBgLMTQxNTU1NTI2NzEVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA" },
        button: { text: "Stop promotions", payload: "STOP_PROMOS" },
      }),
    );
    expect(message).toEqual({
      ...blank,
      providerMessageId: "wamid.IN0",
      kind: "button",
      text: "Stop promotions",
      payload: "STOP_PROMOS",
      contextProviderMessageId: "wamid.HBgLMTQxNTU1NTI2NzEVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA",
    });
  });

  it("interactive button_reply and list_reply: title and id", () => {
    const [change] = parseWebhook(
      inbound(
        { type: "interactive", context: { from: "15550783881", id: "wamid.OUT1" }, interactive: { type: "button_reply", button_reply: { id: "yes-1", title: "Yes" } } },
        { type: "interactive", interactive: { type: "list_reply", list_reply: { id: "row-2", title: "Tuesday", description: "10:00–12:00" } } },
      ),
      RECEIVED,
    );
    expect(change!.inbound).toEqual([
      { ...blank, providerMessageId: "wamid.IN0", kind: "interactive", text: "Yes", payload: "yes-1", contextProviderMessageId: "wamid.OUT1" },
      { ...blank, providerMessageId: "wamid.IN1", kind: "interactive", text: "Tuesday", payload: "row-2" },
    ]);
  });

  it("media: image with a caption, document with a filename, audio, video and sticker", () => {
    const [change] = parseWebhook(
      inbound(
        { type: "image", image: { caption: "My receipt", mime_type: "image/jpeg", sha256: "abc=", id: "1479537139650973" } },
        { type: "document", document: { filename: "invoice.pdf", mime_type: "application/pdf", sha256: "def=", id: "9876" } },
        { type: "audio", audio: { mime_type: "audio/ogg; codecs=opus", sha256: "ghi=", id: "555", voice: true } },
        { type: "video", video: { mime_type: "video/mp4", sha256: "jkl=", id: "777" } },
        { type: "sticker", sticker: { mime_type: "image/webp", sha256: "mno=", id: "888", animated: false } },
      ),
      RECEIVED,
    );
    expect(change!.inbound.map((m) => [m.kind, m.text, m.media])).toEqual([
      ["media", "My receipt", { kind: "image", id: "1479537139650973", mimeType: "image/jpeg", caption: "My receipt", filename: null }],
      ["media", null, { kind: "document", id: "9876", mimeType: "application/pdf", caption: null, filename: "invoice.pdf" }],
      ["media", null, { kind: "audio", id: "555", mimeType: "audio/ogg; codecs=opus", caption: null, filename: null }],
      ["media", null, { kind: "video", id: "777", mimeType: "video/mp4", caption: null, filename: null }],
      ["media", null, { kind: "sticker", id: "888", mimeType: "image/webp", caption: null, filename: null }],
    ]);
  });

  it("location", () => {
    const message = only(inbound({ type: "location", location: { latitude: 37.4851, longitude: -122.1483, name: "Philz Coffee", address: "101 Forest Ave, Palo Alto", url: "https://philz.com" } }));
    expect(message).toEqual({
      ...blank,
      providerMessageId: "wamid.IN0",
      kind: "location",
      location: { latitude: 37.4851, longitude: -122.1483, name: "Philz Coffee", address: "101 Forest Ave, Palo Alto" },
    });
  });

  it("reaction, and a removed reaction (no emoji)", () => {
    const [change] = parseWebhook(
      inbound({ type: "reaction", reaction: { message_id: "wamid.OUT9", emoji: "👍" } }, { type: "reaction", reaction: { message_id: "wamid.OUT9" } }),
      RECEIVED,
    );
    expect(change!.inbound).toEqual([
      { ...blank, providerMessageId: "wamid.IN0", kind: "reaction", text: "👍", reaction: { emoji: "👍", providerMessageId: "wamid.OUT9" } },
      { ...blank, providerMessageId: "wamid.IN1", kind: "reaction", reaction: { emoji: "", providerMessageId: "wamid.OUT9" } },
    ]);
  });

  it("unsupported for a type Meta cannot show us, one we do not know, or one missing its object", () => {
    const [change] = parseWebhook(
      inbound(
        { type: "unsupported", errors: [{ code: 131051, title: "Message type unknown", message: "Message type unknown" }], unsupported: { type: "poll_creation" } },
        { type: "contacts", contacts: [{ name: { formatted_name: "Bob" } }] },
        { type: "text" },
      ),
      RECEIVED,
    );
    expect(change!.inbound.map((m) => m.kind)).toEqual(["unsupported", "unsupported", "unsupported"]);
    expect(change!.inbound[0]).toEqual({ ...blank, providerMessageId: "wamid.IN0", kind: "unsupported" });
  });

  it("has no profile name when the contact entry carries none", () => {
    const body = inbound({ type: "text", text: { body: "hi" } });
    body.entry[0]!.changes[0]!.value.contacts = [];
    expect(only(body).profileName).toBeNull();
  });
});

describe("parseWebhook: statuses and malformed input", () => {
  it("keeps statuses and inbound messages, and skips malformed entries", () => {
    const parsed = parseWebhook(
      {
        entry: [
          null,
          {
            id: "w",
            changes: [
              {
                value: {
                  metadata: { phone_number_id: "p" },
                  messages: [
                    { id: "in" },
                    { id: "in.1", from: "14155552671", timestamp: "1750030073", type: "text", text: { body: "STOP" } },
                    { id: "in.3", from: "not-a-number", type: "text", text: { body: "STOP" } },
                    { id: "in.4", from: "1234", type: "text", text: { body: "STOP" } },
                  ],
                  statuses: [{ id: "wamid.1", status: "sent", timestamp: "1750030073" }, { status: "sent" }, { id: "x", status: "bogus" }],
                },
              },
            ],
          },
        ],
      },
      RECEIVED,
    );
    expect(parsed).toEqual([
      {
        account: "w",
        address: "p",
        statuses: [{ providerMessageId: "wamid.1", status: "sent", at: AT }],
        inbound: [{ ...blank, profileName: null, providerMessageId: "in.1", kind: "text", text: "STOP" }],
        templateStatuses: [],
      },
    ]);
  });

  it("a failed status carries the code and Meta's words; a time in the future becomes the time received", () => {
    const [change] = parseWebhook(
      {
        entry: [
          {
            id: "w",
            changes: [
              {
                value: {
                  metadata: { phone_number_id: "p" },
                  statuses: [
                    { id: "wamid.f", status: "failed", timestamp: "1750030073", errors: [{ code: 131026, title: "Message undeliverable", error_data: { details: "Receiver is incapable." } }] },
                    { id: "wamid.g", status: "failed", timestamp: "1750030073", errors: [{ code: 131049 }] },
                    { id: "wamid.late", status: "read", timestamp: String(Math.floor(RECEIVED.getTime() / 1000) + 3600) },
                  ],
                },
              },
            ],
          },
        ],
      },
      RECEIVED,
    );
    expect(change!.statuses).toEqual([
      { providerMessageId: "wamid.f", status: "failed", at: AT, errorCode: "131026", errorReason: "Message undeliverable: Receiver is incapable." },
      { providerMessageId: "wamid.g", status: "failed", at: AT, errorCode: "131049", errorReason: expect.stringMatching(/engagement/) },
      { providerMessageId: "wamid.late", status: "read", at: RECEIVED },
    ]);
  });
});

describe("signature and handshake", () => {
  it("verifySignature accepts only sha256=<hmac of the bytes>", () => {
    const raw = new TextEncoder().encode('{"a":1}');
    expect(verifySignature(raw, signPayload(raw, "s3cret"), "s3cret")).toBe(true);
    expect(verifySignature(raw, signPayload(raw, "s3cret").toUpperCase().replace("SHA256", "sha256"), "s3cret")).toBe(true);
    expect(verifySignature(raw, signPayload(raw, "other"), "s3cret")).toBe(false);
    expect(verifySignature(raw, signPayload(raw, "s3cret").replace("sha256=", "sha1="), "s3cret")).toBe(false);
    expect(verifySignature(raw, null, "s3cret")).toBe(false);
  });

  it("reads the signature header and the subscription handshake", () => {
    expect(whatsappWebhook.signatureOf(new Headers({ "x-hub-signature-256": "sha256=ab" }))).toBe("sha256=ab");
    expect(whatsappWebhook.handshake(new URLSearchParams("hub.mode=subscribe&hub.challenge=42&hub.verify_token=t"))).toEqual({ token: "t", challenge: "42" });
    expect(whatsappWebhook.handshake(new URLSearchParams("hub.mode=unsubscribe&hub.challenge=42&hub.verify_token=t"))).toBeNull();
    expect(whatsappWebhook.handshake(new URLSearchParams("hub.mode=subscribe&hub.verify_token=t"))).toBeNull();
  });
});

describe("parseWebhook: message_template_status_update", () => {
  const update = (value: Record<string, unknown>) => ({
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", time: 1, changes: [{ field: "message_template_status_update", value }] }],
  });

  it("a rejection with Meta's reason in words, a pause with its explanation, an approval without reason", () => {
    const [rejected] = parseWebhook(
      update({ event: "REJECTED", message_template_id: 1234567890, message_template_name: "winter_sale", message_template_language: "en_US", reason: "INCORRECT_CATEGORY" }),
      RECEIVED,
    );
    expect(rejected).toEqual({
      account: "102290129340398",
      address: null,
      statuses: [],
      inbound: [],
      templateStatuses: [{ externalId: "1234567890", name: "winter_sale", language: "en_US", status: "REJECTED", reason: expect.stringContaining("category") }],
    });
    const [paused] = parseWebhook(
      update({ event: "PAUSED", message_template_id: 1, message_template_name: "x", message_template_language: "en", other_info: { title: "FIRST_PAUSE", description: "Paused for 3 hours." } }),
      RECEIVED,
    );
    expect(paused!.templateStatuses[0]).toMatchObject({ status: "PAUSED", reason: "FIRST_PAUSE: Paused for 3 hours." });
    const [approved] = parseWebhook(update({ event: "APPROVED", message_template_id: 1, message_template_name: "x", message_template_language: "en", reason: "NONE" }), RECEIVED);
    expect(approved!.templateStatuses[0]).toMatchObject({ status: "APPROVED", reason: null });
  });

  it("skips an update without an event or a template", () => {
    expect(parseWebhook(update({ message_template_id: 1 }), RECEIVED)[0]?.templateStatuses ?? []).toEqual([]);
    expect(parseWebhook(update({ event: "APPROVED" }), RECEIVED)[0]?.templateStatuses ?? []).toEqual([]);
  });
});
