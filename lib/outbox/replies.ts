// A conversation's reply (`source = 'reply'`): one message to one contact on the conversation's
// number, with no campaign, queued (due now) for the same dispatcher, throughput and delivery
// statuses as campaign messages. The caller dispatches it (`dispatchSoon`).
import type { Executor } from "@/db";
import { messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import type { StoredMessage } from "./test-sends";

export interface ReplyMessage {
  workspaceId: string;
  contactId: string;
  senderId: string;
  phone: string;
  /** Null for a free-form reply. */
  template: { name: string; language: string } | null;
  /** What the contact reads, for the timeline, logs and export. */
  renderedText: string;
  /** Provider-ready content: `{ template }`, `{ text }`, `{ image }` or `{ document }`. */
  payload: Record<string, unknown>;
  /** The member who wrote it; null for an automatic reply or an API key. */
  authorUserId: string | null;
  createdAt: Date;
}

export async function queueReplyMessage(db: Executor, reply: ReplyMessage): Promise<StoredMessage> {
  const [row] = await db
    .insert(messages)
    .values({
      id: newId("msg"),
      workspaceId: reply.workspaceId,
      campaignId: null,
      contactId: reply.contactId,
      senderId: reply.senderId,
      phoneNumber: reply.phone,
      templateName: reply.template?.name ?? null,
      templateLanguage: reply.template?.language ?? null,
      renderedText: reply.renderedText,
      payload: reply.payload,
      authorUserId: reply.authorUserId,
      status: "queued",
      source: "reply",
      nextAttemptAt: reply.createdAt,
      createdAt: reply.createdAt,
      updatedAt: reply.createdAt,
    })
    .returning();
  return row!;
}
