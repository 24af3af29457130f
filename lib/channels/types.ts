// The contract every channel implements (lib/channels/<name>/). Nothing outside a channel's folder
// knows its wire shapes (Graph API bodies, error codes, webhook envelopes): the rest of the app sees
// only the neutral types below.
import type { Executor } from "@/db";

export const CHANNEL_NAMES = ["sandbox", "whatsapp"] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** What a channel needs to send for one sender (a WhatsApp number, the sandbox). */
export interface ChannelSender {
  id: string;
  workspaceId: string;
  channel: ChannelName;
  /** The channel's address of the number (WhatsApp: phone_number_id); null for the sandbox. */
  address: string | null;
  /** Sealed credentials (lib/crypto); only the channel opens them. */
  accessTokenEncrypted: string | null;
  throughputPerSecond: number;
}

export interface OutboundSend {
  id: string;
  /** E.164. */
  to: string;
  /** The provider-ready template object the outbox composed. */
  payload: Record<string, unknown>;
  /** Attempts so far, including this one. */
  attempts: number;
}

export interface SendAccepted {
  /** The provider's id of the message, which its status reports and replies refer to (WhatsApp: wamid). */
  providerMessageId: string;
}

/** How a failed send is settled. */
export type SendFailureClass = "retryable" | "permanent" | "outcome_unknown";

export interface ClassifiedFailure {
  class: SendFailureClass;
  /** Stored as the message's error_code: the provider's code as text, or one of ours. */
  code: string;
  reason: string;
  /** Earliest retry (e.g. a pair-rate or throughput error asks for a longer wait). */
  minDelayMs?: number;
  /** True when the failure is the sender's (token, permission, account): health and banners use it. */
  senderFault?: boolean;
}

export type ReportedStatus = "sent" | "delivered" | "read" | "failed";

export interface StatusUpdate {
  providerMessageId: string;
  status: ReportedStatus;
  at: Date;
  errorCode?: string | null;
  errorReason?: string | null;
}

export const INBOUND_KINDS = ["text", "button", "interactive", "media", "location", "reaction", "unsupported"] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

/** A message a contact sent to one of our numbers, as every channel reports it. */
export interface InboundMessage {
  providerMessageId: string;
  /** E.164 of the contact. */
  from: string;
  /** The profile name the contact shows, when the channel tells it. */
  profileName: string | null;
  at: Date;
  kind: InboundKind;
  /** What a person reads: the text, the button's or list row's title, a media caption, a reaction emoji. */
  text: string | null;
  /** Quick-reply button payload, or the id of the chosen interactive button / list row. */
  payload: string | null;
  media: { id: string; mimeType: string | null; caption: string | null; filename: string | null; kind: "image" | "video" | "audio" | "document" | "sticker" } | null;
  location: { latitude: number; longitude: number; name: string | null; address: string | null } | null;
  /** A reaction: the emoji ("" when removed) and the message reacted to. */
  reaction: { emoji: string; providerMessageId: string } | null;
  /** The message this one answers (WhatsApp's `context.id`), when the channel says so. */
  contextProviderMessageId: string | null;
}

/** One webhook delivery, parsed and addressed. */
export interface ParsedWebhookChange {
  /** The number it is about (WhatsApp: metadata.phone_number_id). */
  address: string | null;
  /** The business account (WhatsApp: entry[].id). */
  account: string | null;
  statuses: StatusUpdate[];
  inbound: InboundMessage[];
}

export interface ChannelTemplate {
  externalId: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameterFormat: "POSITIONAL" | "NAMED";
  components: unknown[];
}

export interface NumberInfo {
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  /** The account's daily messaging limit as the channel names it (WhatsApp: TIER_1K …). */
  messagingLimit: string | null;
  throughputPerSecond: number;
}

/**
 * A channel: one folder under lib/channels, registered in lib/channels/index.ts. The concrete
 * method set is owned by lib/channels/README.md; this is the minimum every channel provides.
 */
export interface Channel {
  name: ChannelName;
  send(message: OutboundSend, sender: ChannelSender, options?: { signal?: AbortSignal }): Promise<SendAccepted>;
  classifyError(error: unknown): ClassifiedFailure;
  /** Default and maximum throughput of a number on this channel, messages per second. */
  limits: { defaultThroughputPerSecond: number };
  listTemplates(db: Executor, sender: ChannelSender): Promise<ChannelTemplate[]>;
}
