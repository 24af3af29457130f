// The sandbox's "simulate a reply": an inbound message of any kind from one contact (text, a quick-reply
// button such as Meta's "Stop promotions", an interactive reply, media, a location, a reaction),
// optionally answering one of the workspace's outbound messages, stored by the same code as a real
// webhook delivery (recordInboundMessages).
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { contacts, messages } from "@/db/schema";
import { SANDBOX_MEDIA_TYPES, sandboxInboundMessage, type SandboxInbound } from "@/lib/channels";
import type { InboundKind } from "@/lib/channels/types";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { findSandboxSender } from "@/lib/senders/service";
import { dispatchSoon } from "@/lib/messaging";
import { recordInboundMessages } from "./record";

const words = (empty: string, max: number, tooLong: string) =>
  z.string().trim().min(1, empty).max(max, tooLong).refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } });
const optionalWords = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } }).optional();
const messageId = z.string().min(1).max(100);
const MAX_BACKDATE_MS = 30 * 24 * 60 * 60 * 1000;
const base = {
  contactId: z.string().min(1).max(100),
  /** The outbound message (`msg_…`) the contact answers: WhatsApp's `context.id`. */
  replyToMessageId: messageId.optional(),
  /**
   * When the contact sent it (default now), up to 30 days back: a demo of a conversation whose
   * 24-hour window has closed.
   */
  receivedAt: z.iso
    .datetime({ offset: true })
    .refine((value) => Date.parse(value) <= Date.now() + 60_000, { message: "A reply cannot come from the future." })
    .refine((value) => Date.parse(value) >= Date.now() - MAX_BACKDATE_MS, { message: "At most 30 days ago." })
    .optional(),
};

export const simulateReplySchema = z.discriminatedUnion("kind", [
  z.object({
    ...base,
    kind: z.literal("text").optional().default("text"),
    text: words("Write the reply, such as STOP or START.", 4096, "At most 4,096 characters (WhatsApp's limit for a text message)."),
  }),
  z.object({
    ...base,
    kind: z.literal("button"),
    text: words("Write the button's text, such as Stop promotions.", 256, "At most 256 characters."),
    payload: optionalWords(256),
  }),
  z.object({
    ...base,
    kind: z.literal("interactive"),
    text: words("Write the chosen reply's title.", 256, "At most 256 characters."),
    payload: optionalWords(256),
  }),
  z.object({
    ...base,
    kind: z.literal("media"),
    mediaType: z.enum(SANDBOX_MEDIA_TYPES),
    mimeType: z.string().trim().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+$/i, "A MIME type such as image/jpeg."),
    caption: optionalWords(1024),
    filename: optionalWords(240),
  }),
  z.object({
    ...base,
    kind: z.literal("location"),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: optionalWords(1000),
    address: optionalWords(1000),
  }),
  z.object({
    ...base,
    kind: z.literal("reaction"),
    emoji: words("Pick the emoji.", 16, "One emoji."),
    replyToMessageId: messageId,
  }),
]);
export type SimulateReplyInput = z.output<typeof simulateReplySchema>;

export interface SimulatedReply {
  contactId: string;
  /** The stored inbound message. */
  inboundMessageId: string;
  kind: InboundKind;
  /** The outbound message it answers and that message's campaign. */
  replyToMessageId: string | null;
  campaignId: string | null;
  /** What the reply did: `opted_out` / `opted_in` for a consent keyword or a stop button, `none` otherwise. */
  action: "opted_out" | "opted_in" | "none";
  /** False when the contact already was in that state. */
  changed: boolean;
  optedOut: boolean;
}

function contentOf(input: SimulateReplyInput): SandboxInbound {
  switch (input.kind) {
    case "text":
      return { kind: "text", text: input.text };
    case "button":
    case "interactive":
      return { kind: input.kind, text: input.text, payload: input.payload || null };
    case "media":
      return { kind: "media", mediaType: input.mediaType, mimeType: input.mimeType.toLowerCase(), caption: input.caption || null, filename: input.filename || null };
    case "location":
      return { kind: "location", latitude: input.latitude, longitude: input.longitude, name: input.name || null, address: input.address || null };
    case "reaction":
      return { kind: "reaction", emoji: input.emoji };
  }
}

/** The provider id of the contact's message `id`, which the reply answers. */
async function answeredProviderMessageId(db: Executor, workspaceId: string, contact: { id: string; phone: string }, id: string): Promise<string> {
  const [row] = await db
    .select({ providerMessageId: messages.providerMessageId, phone: messages.phoneNumber })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.id, id)))
    .limit(1);
  if (!row) throw notFound("No message with this id exists in your workspace.");
  if (row.phone !== contact.phone) {
    throw validationFailed([{ path: "replyToMessageId", code: "other_contact", message: "This message was sent to another contact." }]);
  }
  if (!row.providerMessageId) {
    throw validationFailed([{ path: "replyToMessageId", code: "not_sent", message: "This message has not been sent yet: only a sent message can be answered." }]);
  }
  return row.providerMessageId;
}

/** 409 unless the workspace sends through the sandbox; another workspace's contact or message is 404. */
export async function simulateInboundReply(db: Executor, workspaceId: string, input: SimulateReplyInput): Promise<SimulatedReply> {
  // Replies arrive on a number: the simulated ones on the workspace's sandbox sender.
  const sender = await findSandboxSender(db, workspaceId);
  if (!sender) {
    throw new ApiError("sandbox_only", "Every sender of the workspace is a WhatsApp number: real replies arrive on the webhook, so there is nothing to simulate.");
  }
  const [contact] = await db
    .select({ id: contacts.id, phone: contacts.phoneNumber, name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, input.contactId)))
    .limit(1);
  if (!contact) throw notFound("No contact with this id exists in your workspace.");
  const answers = input.replyToMessageId ? await answeredProviderMessageId(db, workspaceId, contact, input.replyToMessageId) : null;

  const message = sandboxInboundMessage(contentOf(input), {
    from: contact.phone,
    profileName: contact.name,
    answers,
    at: input.receivedAt ? new Date(input.receivedAt) : undefined,
  });
  const {
    messages: [recorded],
    autoReplies,
  } = await recordInboundMessages(db, { workspaceId, senderId: sender.id }, [message]);
  if (autoReplies > 0) dispatchSoon();
  const [after] = await db.select({ optedOutAt: contacts.optedOutAt }).from(contacts).where(eq(contacts.id, contact.id)).limit(1);
  const consent = recorded!.consent;
  return {
    contactId: contact.id,
    inboundMessageId: recorded!.id,
    kind: message.kind,
    replyToMessageId: recorded!.replyToMessageId,
    campaignId: recorded!.campaignId,
    action: consent.action,
    changed: consent.action !== "none" ? consent.changed : false,
    optedOut: Boolean(after?.optedOutAt),
  };
}
