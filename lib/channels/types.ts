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
  /** The business account the number belongs to (WhatsApp: waba_id), when the caller knows it. */
  account?: string | null;
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
  /** The whole sender slows down: no message of it goes out for this long (every process). */
  senderPauseMs?: number;
  /** Messages to this recipient wait at least this long. */
  recipientPauseMs?: number;
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
  /** Review and quality decisions about the account's templates (WhatsApp: `message_template_status_update`). */
  templateStatuses: TemplateStatusChange[];
}

/** The provider decided about a template: approved, rejected (with its reason in words), paused, disabled… */
export interface TemplateStatusChange {
  /** The provider's id of the template, when it gives one. */
  externalId: string | null;
  name: string | null;
  language: string | null;
  /** Upper case, as templates store it: APPROVED, REJECTED, PAUSED, DISABLED, PENDING, … */
  status: string;
  /** Why (a rejection, a pause), worded by the channel; null when there is nothing to say. */
  reason: string | null;
}

/** A template sent for review: Meta's component JSON (lib/templates builds it). */
export interface TemplateSubmission {
  name: string;
  language: string;
  category: string;
  parameterFormat: "POSITIONAL" | "NAMED";
  components: unknown[];
}

export interface SubmittedTemplate {
  /** The provider's id of the new template. */
  externalId: string;
  /** Usually PENDING; a provider may decide at once. */
  status: string;
  /** The category the provider filed it under (it may change the one asked for). */
  category: string;
}

export interface ChannelTemplate {
  /** The provider's id of the template, when it gives one. */
  externalId: string | null;
  name: string;
  language: string;
  category: string;
  status: string;
  parameterFormat: "POSITIONAL" | "NAMED";
  components: unknown[];
  /** Why the provider rejected it, in words a marketer can act on; null when it gives no reason (or did not reject it). */
  statusReason: string | null;
}

export interface NumberInfo {
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  /** The account's daily messaging limit as the channel names it (WhatsApp: TIER_1K …). */
  messagingLimit: string | null;
  /** The provider's throughput level (WhatsApp: STANDARD, HIGH). */
  throughputLevel: string | null;
  throughputPerSecond: number;
}

/** Which kind of trouble of the sender itself a stored error code stands for (banners, health). */
export type SenderTroubleKind = "credentials" | "connectivity" | "account" | "setup";

/** Header lookup, as `Request.headers` offers it. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * How a channel's provider calls us back: the subscription handshake, the signature over the raw
 * body, and the body parsed into neutral changes. Routes and lib/inbound/webhook.ts use only this.
 */
export interface ChannelWebhook {
  /** Where the signature travels, for error messages ("X-Hub-Signature-256"). */
  signatureHeader: string;
  /** The signature the request carries, or null when it is unsigned. */
  signatureOf(headers: HeaderSource): string | null;
  /** True when `signature` is the provider's signature of exactly these bytes with `secret`. */
  verifySignature(raw: Uint8Array, signature: string, secret: string): boolean;
  /** The signature the provider would send (tests, benchmarks, simulations). */
  sign(raw: Uint8Array | string, secret: string): string;
  /** A subscription handshake (`GET`): the token to check and what to echo, or null when the query is not one. */
  handshake(query: URLSearchParams): { token: string; challenge: string } | null;
  /** Statuses and inbound messages of one delivery; anything the channel does not know is skipped. */
  parse(body: unknown, receivedAt: Date): ParsedWebhookChange[];
}

/**
 * A channel: one folder under lib/channels, registered in lib/channels/index.ts. What each member
 * promises is written down in lib/channels/README.md.
 */
export interface Channel {
  name: ChannelName;
  /** Sends one message; throws on failure (the channel's own errors, or ChannelSendError). */
  send(message: OutboundSend, sender: ChannelSender, options?: { signal?: AbortSignal }): Promise<SendAccepted>;
  /** Turns whatever `send` threw into a failure class, a stored code and a reason. Never throws. */
  classifyError(error: unknown): ClassifiedFailure;
  /** Whether a stored error code of this channel means the sender itself cannot send; null when it is one message's failure. */
  senderTrouble(code: string): SenderTroubleKind | null;
  /** Default and maximum throughput of a number on this channel, messages per second. */
  limits: { defaultThroughputPerSecond: number; maxThroughputPerSecond: number };
  /** Every template the sender's account has, as the provider reports it; throws ChannelRequestError. */
  listTemplates(db: Executor, sender: ChannelSender): Promise<ChannelTemplate[]>;
  /** Sends a new template for review to the sender's account; throws ChannelRequestError when the provider refuses it. */
  submitTemplate(sender: ChannelSender, template: TemplateSubmission): Promise<SubmittedTemplate>;
  /** What the provider says about a number; throws ChannelRequestError when it cannot tell. */
  numberInfo(address: string, credentials: { accessToken: string }): Promise<NumberInfo>;
  /** The bytes of media a contact sent (`InboundMessage.media.id`); throws ChannelRequestError when the provider cannot give them. */
  downloadMedia(mediaId: string, sender: ChannelSender): Promise<{ bytes: Uint8Array; mimeType: string | null }>;
  /** "TIER_2K" → "2,000 customers / 24 h"; null when there is nothing to say. */
  describeMessagingLimit(limit: string | null | undefined): string | null;
  /** Verification and parsing of the provider's callbacks; absent for a channel that has none (the sandbox). */
  webhook: ChannelWebhook | null;
}

/** A provider request (number info, template listing) that failed, in neutral words. */
export interface ChannelRequestFailure {
  /** `graph`: the provider answered with an error of its own (the name predates other channels; the settings page keys on it). */
  kind: "graph" | "http" | "timeout" | "network";
  message: string;
  /** The provider's code as it gave it (a number for WhatsApp), null when there is none. */
  code: number | null;
  subcode: number | null;
  details: string | null;
  httpStatus: number | null;
}
