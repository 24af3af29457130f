// Inbound messages of a WhatsApp webhook change (`value.messages[]`) as the neutral InboundMessage
// of lib/channels/types.ts: what `handleWebhookDelivery` hands to lib/inbound. A message without an
// id or a phone number (a username-only sender) is skipped; a type not listed here is stored as
// `unsupported`.
import type { InboundMessage } from "@/lib/channels/types";
import { isE164PhoneNumber } from "@/lib/trigger/validation";

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null);
const asNumber = (value: unknown): number | null => {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(number) ? number : null;
};

const MEDIA_TYPES = ["image", "video", "audio", "document", "sticker"] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

/** When the message was sent: Meta's timestamp, unless missing or implausibly in the future. */
export function eventTime(timestamp: unknown, receivedAt: Date): Date {
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || seconds <= 0) return receivedAt;
  const at = new Date(seconds * 1000);
  return at.getTime() > receivedAt.getTime() + 5 * 60_000 ? receivedAt : at;
}

type Content = Pick<InboundMessage, "kind" | "text" | "payload" | "media" | "location" | "reaction">;
const none = { text: null, payload: null, media: null, location: null, reaction: null };

function contentOf(message: Record<string, unknown>): Content {
  const type = asString(message.type);
  if (type === "text") return { ...none, kind: "text", text: asString(asRecord(message.text)?.body) };
  if (type === "button") {
    const button = asRecord(message.button);
    return { ...none, kind: "button", text: asString(button?.text), payload: asString(button?.payload) };
  }
  if (type === "interactive") {
    const interactive = asRecord(message.interactive);
    const reply = asRecord(interactive?.button_reply) ?? asRecord(interactive?.list_reply);
    return { ...none, kind: "interactive", text: asString(reply?.title), payload: asString(reply?.id) };
  }
  if (type && (MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = asRecord(message[type]);
    const id = asString(media?.id);
    if (id) {
      const caption = asString(media?.caption);
      return {
        ...none,
        kind: "media",
        text: caption,
        media: { id, mimeType: asString(media?.mime_type), caption, filename: asString(media?.filename), kind: type as MediaType },
      };
    }
  }
  if (type === "location") {
    const location = asRecord(message.location);
    const latitude = asNumber(location?.latitude);
    const longitude = asNumber(location?.longitude);
    if (latitude !== null && longitude !== null) {
      return { ...none, kind: "location", location: { latitude, longitude, name: asString(location?.name), address: asString(location?.address) } };
    }
  }
  if (type === "reaction") {
    const reaction = asRecord(message.reaction);
    const target = asString(reaction?.message_id);
    if (target) {
      const emoji = typeof reaction?.emoji === "string" ? reaction.emoji : "";
      return { ...none, kind: "reaction", text: emoji || null, reaction: { emoji, providerMessageId: target } };
    }
  }
  return { ...none, kind: "unsupported" };
}

/** The inbound messages of one change `value` (its `messages` and the senders' profile names in `contacts`). */
export function parseInboundMessages(value: Record<string, unknown>, receivedAt: Date): InboundMessage[] {
  const profiles = new Map<string, string>();
  for (const entry of asArray(value.contacts)) {
    const contact = asRecord(entry);
    const waId = asString(contact?.wa_id);
    const name = asString(asRecord(contact?.profile)?.name);
    if (waId && name) profiles.set(waId, name);
  }
  const parsed: InboundMessage[] = [];
  for (const item of asArray(value.messages)) {
    const message = asRecord(item);
    const id = asString(message?.id);
    const from = asString(message?.from);
    const phone = from && /^\d{7,15}$/.test(from) ? `+${from}` : null;
    if (!message || !id || !phone || !isE164PhoneNumber(phone)) continue;
    parsed.push({
      providerMessageId: id,
      from: phone,
      profileName: profiles.get(from!) ?? null,
      at: eventTime(message.timestamp, receivedAt),
      ...contentOf(message),
      contextProviderMessageId: asString(asRecord(message.context)?.id),
    });
  }
  return parsed;
}
