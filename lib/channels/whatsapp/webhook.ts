// WhatsApp webhooks: Meta's subscription handshake, the X-Hub-Signature-256 signature, and the
// `whatsapp_business_account` body parsed into neutral status updates and inbound messages.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ChannelWebhook, HeaderSource, InboundMessage, ParsedWebhookChange, ReportedStatus, StatusUpdate } from "../types";
import { reasonForCode } from "./errors";
import { parseTemplateStatusUpdate } from "./templates";

export const SIGNATURE_HEADER = "X-Hub-Signature-256";

/** `X-Hub-Signature-256: sha256=<hex>` over the exact bytes received, keyed with the app secret. */
export function verifySignature(raw: Uint8Array, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, "hex"));
}

export function signPayload(raw: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null);
const asNumber = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

const REPORTED: readonly ReportedStatus[] = ["sent", "delivered", "read", "failed"];
const isReported = (value: unknown): value is ReportedStatus => typeof value === "string" && (REPORTED as readonly string[]).includes(value);

function eventTime(timestamp: unknown, receivedAt: Date): Date {
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || seconds <= 0) return receivedAt;
  const at = new Date(seconds * 1000);
  // A clock far in the future is not believable; fall back to when we received it.
  return at.getTime() > receivedAt.getTime() + 5 * 60_000 ? receivedAt : at;
}

function failureOf(status: Record<string, unknown>): { errorCode: string | null; errorReason: string } {
  const error = asRecord(asArray(status.errors)[0]);
  const code = error ? Number(error.code) : NaN;
  const metaMessage = asString(error?.message) ?? asString(error?.title);
  const details = asString(asRecord(error?.error_data)?.details);
  const parts = [metaMessage, details && details !== metaMessage ? details : null].filter(Boolean);
  const reason = parts.length > 0 ? parts.join(": ") : Number.isFinite(code) ? reasonForCode(code) : "WhatsApp reported the message as failed.";
  return { errorCode: Number.isFinite(code) ? String(code) : null, errorReason: reason };
}

function parseStatus(value: unknown, receivedAt: Date): StatusUpdate | null {
  const status = asRecord(value);
  const id = asString(status?.id);
  if (!status || !id || !isReported(status.status)) return null;
  const at = eventTime(status.timestamp, receivedAt);
  return status.status === "failed" ? { providerMessageId: id, status: "failed", at, ...failureOf(status) } : { providerMessageId: id, status: status.status, at };
}

const MEDIA_KINDS = ["image", "video", "audio", "document", "sticker"] as const;
type MediaKind = (typeof MEDIA_KINDS)[number];
const isMediaKind = (value: unknown): value is MediaKind => typeof value === "string" && (MEDIA_KINDS as readonly string[]).includes(value);

type Content = Pick<InboundMessage, "kind" | "text" | "payload" | "media" | "location" | "reaction">;
const EMPTY: Content = { kind: "unsupported", text: null, payload: null, media: null, location: null, reaction: null };

/** What one `value.messages[]` item says, by its `type`; a type we do not know, or one missing its object, is `unsupported`. */
function contentOf(message: Record<string, unknown>): Content {
  const type = message.type;
  if (type === "text") {
    const body = asString(asRecord(message.text)?.body);
    return body === null ? EMPTY : { ...EMPTY, kind: "text", text: body };
  }
  if (type === "button") {
    // A tap on a template's quick-reply button: its label and the payload the template set.
    const button = asRecord(message.button);
    const text = asString(button?.text);
    const payload = asString(button?.payload);
    return text === null && payload === null ? EMPTY : { ...EMPTY, kind: "button", text, payload };
  }
  if (type === "interactive") {
    const interactive = asRecord(message.interactive);
    const reply = asRecord(interactive?.button_reply) ?? asRecord(interactive?.list_reply);
    if (!reply) return EMPTY;
    return { ...EMPTY, kind: "interactive", text: asString(reply.title), payload: asString(reply.id) };
  }
  if (isMediaKind(type)) {
    const media = asRecord(message[type]);
    const id = asString(media?.id);
    if (!media || !id) return EMPTY;
    const caption = asString(media.caption);
    return {
      ...EMPTY,
      kind: "media",
      text: caption,
      media: { kind: type, id, mimeType: asString(media.mime_type), caption, filename: asString(media.filename) },
    };
  }
  if (type === "location") {
    const location = asRecord(message.location);
    const latitude = asNumber(location?.latitude);
    const longitude = asNumber(location?.longitude);
    if (!location || latitude === null || longitude === null) return EMPTY;
    return { ...EMPTY, kind: "location", location: { latitude, longitude, name: asString(location.name), address: asString(location.address) } };
  }
  if (type === "reaction") {
    const reaction = asRecord(message.reaction);
    const target = asString(reaction?.message_id);
    if (!reaction || !target) return EMPTY;
    // Meta leaves `emoji` out when the contact removes a reaction.
    const emoji = typeof reaction.emoji === "string" ? reaction.emoji : "";
    return { ...EMPTY, kind: "reaction", text: emoji === "" ? null : emoji, reaction: { emoji, providerMessageId: target } };
  }
  return EMPTY;
}

function parseInbound(value: unknown, profiles: Map<string, string>, receivedAt: Date): InboundMessage | null {
  const message = asRecord(value);
  if (!message) return null;
  const id = asString(message.id);
  const from = asString(message.from);
  // `from` is the contact's number as digits; a username-only contact has none and is skipped.
  if (!id || !from || !/^\d{7,15}$/.test(from)) return null;
  return {
    providerMessageId: id,
    from: `+${from}`,
    profileName: profiles.get(from) ?? null,
    at: eventTime(message.timestamp, receivedAt),
    ...contentOf(message),
    contextProviderMessageId: asString(asRecord(message.context)?.id),
  };
}

/** The status updates, inbound messages and template decisions in a webhook body, one change per `entry[].changes[]`. */
export function parseWebhook(body: unknown, receivedAt: Date = new Date()): ParsedWebhookChange[] {
  const changes: ParsedWebhookChange[] = [];
  for (const entryValue of asArray(asRecord(body)?.entry)) {
    const entry = asRecord(entryValue);
    if (!entry) continue;
    for (const changeValue of asArray(entry.changes)) {
      const value = asRecord(asRecord(changeValue)?.value);
      if (!value) continue;
      const templateStatus = parseTemplateStatusUpdate(asRecord(changeValue)?.field, value);
      if (templateStatus) {
        changes.push({ account: asString(entry.id), address: null, statuses: [], inbound: [], templateStatuses: [templateStatus] });
        continue;
      }
      const statuses = asArray(value.statuses)
        .map((status) => parseStatus(status, receivedAt))
        .filter((status): status is StatusUpdate => status !== null);
      const profiles = new Map<string, string>();
      for (const contactValue of asArray(value.contacts)) {
        const contact = asRecord(contactValue);
        const waId = asString(contact?.wa_id);
        const name = asString(asRecord(contact?.profile)?.name);
        if (waId && name) profiles.set(waId, name);
      }
      const inbound = asArray(value.messages)
        .map((message) => parseInbound(message, profiles, receivedAt))
        .filter((message): message is InboundMessage => message !== null);
      changes.push({ account: asString(entry.id), address: asString(asRecord(value.metadata)?.phone_number_id), statuses, inbound, templateStatuses: [] });
    }
  }
  return changes;
}

function handshake(query: URLSearchParams): { token: string; challenge: string } | null {
  const challenge = query.get("hub.challenge");
  if (query.get("hub.mode") !== "subscribe" || !challenge) return null;
  return { token: query.get("hub.verify_token") ?? "", challenge };
}

export const whatsappWebhook: ChannelWebhook = {
  signatureHeader: SIGNATURE_HEADER,
  signatureOf: (headers: HeaderSource) => headers.get(SIGNATURE_HEADER),
  verifySignature: (raw, signature, secret) => verifySignature(raw, signature, secret),
  sign: signPayload,
  handshake,
  parse: parseWebhook,
};
