// An inbound message as callers see it: the contact timeline and a campaign's logs return it beside
// outbound messages (lib/messaging/public-message.ts), told apart by `direction`.
import type { inboundMessages } from "@/db/schema";
import type { InboundKind, InboundMessage } from "@/lib/channels/types";

export interface PublicInboundMessage {
  id: string;
  object: "message";
  direction: "inbound";
  kind: InboundKind;
  /** The contact's number and contact (null once the contact is deleted). */
  phone: string;
  contactId: string | null;
  /** The number it arrived on. */
  senderId: string | null;
  /** What a person reads: the text, a button's or reply's title, a media caption, a reaction's emoji. */
  text: string | null;
  /** A quick-reply button's payload or the id of the chosen interactive reply. */
  payload: string | null;
  media: InboundMessage["media"];
  location: InboundMessage["location"];
  /** The emoji ("" when the reaction was removed) and the WhatsApp id of the message reacted to. */
  reaction: { emoji: string; wamid: string } | null;
  /** WhatsApp's id of this message. */
  wamid: string;
  /** The outbound message it answers (WhatsApp's context, or the message reacted to) and its campaign. */
  replyToMessageId: string | null;
  campaignId: string | null;
  /** When the contact sent it. */
  receivedAt: string;
  createdAt: string;
}

export type PublicInboundMessageRow = Pick<
  typeof inboundMessages.$inferSelect,
  | "id"
  | "kind"
  | "phoneNumber"
  | "contactId"
  | "senderId"
  | "text"
  | "payload"
  | "media"
  | "location"
  | "reaction"
  | "providerMessageId"
  | "replyToMessageId"
  | "campaignId"
  | "receivedAt"
  | "createdAt"
>;

export function toPublicInboundMessage(row: PublicInboundMessageRow): PublicInboundMessage {
  const media = row.media;
  return {
    id: row.id,
    object: "message",
    direction: "inbound",
    kind: row.kind,
    phone: row.phoneNumber,
    contactId: row.contactId,
    senderId: row.senderId,
    text: row.text,
    payload: row.payload,
    media: media ? { id: media.id, mimeType: media.mimeType, caption: media.caption, filename: media.filename, kind: media.kind } : null,
    location: row.location ? { latitude: row.location.latitude, longitude: row.location.longitude, name: row.location.name, address: row.location.address } : null,
    reaction: row.reaction ? { emoji: row.reaction.emoji, wamid: row.reaction.providerMessageId } : null,
    wamid: row.providerMessageId,
    replyToMessageId: row.replyToMessageId,
    campaignId: row.campaignId,
    receivedAt: row.receivedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** One line for a table cell or a CSV column: what the contact sent, by kind. */
export function inboundSummary(message: Pick<PublicInboundMessage, "kind" | "text" | "payload" | "media" | "location" | "reaction">): string {
  switch (message.kind) {
    case "text":
      return message.text ?? "";
    case "button":
      return `Button: ${message.text ?? message.payload ?? ""}`;
    case "interactive":
      return `Reply: ${message.text ?? message.payload ?? ""}`;
    case "media": {
      const media = message.media;
      const what = [media?.kind ?? "media", media?.mimeType ? `(${media.mimeType})` : null, media?.filename].filter(Boolean).join(" ");
      return media?.caption ? `${what}: ${media.caption}` : what;
    }
    case "location": {
      const place = message.location;
      if (!place) return "Location";
      return `Location: ${[place.name, place.address].filter(Boolean).join(", ") || `${place.latitude}, ${place.longitude}`}`;
    }
    case "reaction":
      return message.reaction?.emoji ? `Reacted ${message.reaction.emoji}` : "Removed a reaction";
    default:
      return "Unsupported message";
  }
}
