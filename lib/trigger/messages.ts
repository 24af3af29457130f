// The public view of one message, for `GET /api/v1/messages/{id}` (the trigger's `Location`).
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { messages, type MessageStatus } from "@/db/schema";
import { notFound } from "@/lib/http/errors";

/** Statuses a caller sees: `sending` is the dispatcher's internal claim and reads as `queued`. */
export type PublicMessageStatus = Exclude<MessageStatus, "sending">;

export interface PublicMessage {
  id: string;
  object: "message";
  status: PublicMessageStatus;
  campaignId: string;
  phone: string;
  template: { name: string; language: string };
  /** The message as the recipient reads it. */
  text: string;
  /** WhatsApp message id once the provider accepted the message. */
  wamid: string | null;
  error: { code: string | null; reason: string } | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
}

const MESSAGE_ID_PATTERN = /^msg_[0-9A-Za-z]{1,64}$/;

export function publicStatus(status: MessageStatus): PublicMessageStatus {
  return status === "sending" ? "queued" : status;
}

/** One message of the workspace; another workspace's message is 404, like a missing one. */
export async function getPublicMessage(db: Executor, workspaceId: string, messageId: string): Promise<PublicMessage> {
  const missing = () => notFound("No message with this id exists in the API key's workspace.");
  if (!MESSAGE_ID_PATTERN.test(messageId)) throw missing();
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.workspaceId, workspaceId)))
    .limit(1);
  if (!row) throw missing();
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    id: row.id,
    object: "message",
    status: publicStatus(row.status),
    campaignId: row.campaignId,
    phone: row.phoneNumber,
    template: { name: row.templateName, language: row.templateLanguage },
    text: row.renderedText,
    wamid: row.wamid,
    error: row.status === "failed" || row.errorReason ? { code: row.errorCode, reason: row.errorReason ?? "Unknown error" } : null,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
    readAt: iso(row.readAt),
    failedAt: iso(row.failedAt),
  };
}
