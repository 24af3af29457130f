// A conversation's reply (`source = 'reply'`): one message to one contact on the conversation's
// number, with no campaign, queued (due now) for the same dispatcher, throughput and delivery
// statuses as campaign messages. The caller dispatches it (`dispatchSoon`).
import type { Executor } from "@/db";
import { messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { renderTemplate, type TemplateLike } from "@/lib/templates";
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
  /** The keyword auto-reply that sends it, for an automatic reply. */
  autoReplyId?: string | null;
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
      autoReplyId: reply.autoReplyId ?? null,
      status: "queued",
      source: "reply",
      nextAttemptAt: reply.createdAt,
      createdAt: reply.createdAt,
      updatedAt: reply.createdAt,
    })
    .returning();
  return row!;
}

/** What a reply says: the template it uses (none for free-form), its text as read, and its provider-ready payload. */
export type ReplyContent = Pick<ReplyMessage, "template" | "renderedText" | "payload">;

/** A free-form text reply (WhatsApp previews the first link when there is one). */
export function textReplyContent(text: string): ReplyContent {
  return { template: null, renderedText: text, payload: { text: { body: text, preview_url: /https?:\/\//i.test(text) } } };
}

/** A template reply with every variable's value; throws TemplateRenderError naming the missing ones. */
export function templateReplyContent(template: TemplateLike & { name: string; language: string }, variables: Record<string, string>): ReplyContent {
  const rendered = renderTemplate(template, variables);
  return {
    template: { name: template.name, language: template.language },
    renderedText: rendered.text,
    payload: { template: { name: template.name, language: { code: template.language }, components: rendered.components } },
  };
}
