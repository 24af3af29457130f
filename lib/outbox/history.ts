// Messages that were sent before the workspace existed here: the demo workspace's history (a
// completed bulk campaign, a day of trigger sends). They are stored `sent` with the channel's id and
// the time they left; their delivery statuses then arrive through `recordStatusReports` like every
// other message's, and replies through lib/inbound. Never dispatched (they are not queued).
import type { Executor } from "@/db";
import { messages, type MessageSource } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import type { OutboundDraft } from "./compose";

export interface SentMessage {
  draft: Pick<OutboundDraft, "phone" | "senderId" | "template" | "renderedText" | "payload">;
  contactId: string | null;
  apiKeyId?: string | null;
  /** The channel's id of the message (WhatsApp: the wamid). */
  providerMessageId: string;
  /** When it was stored (queued) and when the channel accepted it. */
  createdAt: Date;
  sentAt: Date;
}

/** Stores already-sent messages of one campaign in one INSERT; returns their ids in order. */
export async function insertSentMessages(
  db: Executor,
  input: { workspaceId: string; campaignId: string; source: MessageSource; messages: SentMessage[] },
): Promise<string[]> {
  if (input.messages.length === 0) return [];
  const rows = input.messages.map((message) => ({
    id: newId("msg"),
    workspaceId: input.workspaceId,
    campaignId: input.campaignId,
    contactId: message.contactId,
    senderId: message.draft.senderId,
    apiKeyId: message.apiKeyId ?? null,
    phoneNumber: message.draft.phone,
    templateName: message.draft.template.name,
    templateLanguage: message.draft.template.language,
    renderedText: message.draft.renderedText,
    payload: message.draft.payload as Record<string, unknown>,
    status: "sent" as const,
    source: input.source,
    providerMessageId: message.providerMessageId,
    attempts: 1,
    nextAttemptAt: message.createdAt,
    sentAt: message.sentAt,
    createdAt: message.createdAt,
    updatedAt: message.sentAt,
  }));
  await db.insert(messages).values(rows);
  return rows.map((row) => row.id);
}
