// Replying in a conversation: what may be sent, checked before anything is written, then one
// message queued through the outbox (lib/outbox/replies.ts) for the dispatcher.
//
// - text, image, document: only inside WhatsApp's customer-service window (24 h after the contact's
//   last message); after it 409 `window_closed` with the window's end, so the provider's 131047
//   never happens. A media URL must be https and answer a HEAD request (422 `media_unreachable`).
// - template: at any time; an approved template of the conversation's number, every variable given
//   (422 otherwise); a marketing template to an opted-out contact is 409 `contact_opted_out`.
//
// The message, the conversation's last activity and the audit row (its author) commit together.
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, conversations, senders } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { queueReplyMessage, templateReplyContent, textReplyContent, type ReplyContent } from "@/lib/outbox/replies";
import { TemplateRenderError } from "@/lib/templates";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { checkMediaUrl, type MediaUrlCheck } from "./media";
import { serviceWindow } from "./public";
import type { ReplyInput } from "./schemas";
import { visibleConversationRow, type Viewer } from "./service";

export interface ReplyOptions {
  now?: Date;
  /** How a media URL is checked (default: a HEAD request, lib/conversations/media.ts). */
  checkMedia?: MediaUrlCheck;
}


const PREVIEW_MAX = 200;

async function compose(db: Executor, workspaceId: string, sender: typeof senders.$inferSelect, contact: { optedOutAt: Date | null }, input: ReplyInput, checkMedia: MediaUrlCheck): Promise<ReplyContent> {
  switch (input.type) {
    case "text":
      return textReplyContent(input.text);
    case "image":
    case "document": {
      const problem = await checkMedia(input.url);
      if (problem) throw validationFailed([{ path: "url", code: "media_unreachable", message: problem }]);
      const content: Record<string, string> = { link: input.url };
      if (input.caption) content.caption = input.caption;
      if (input.type === "document") content.filename = input.filename || new URL(input.url).pathname.split("/").pop() || "document";
      const label = input.type === "image" ? "Image" : `Document ${content.filename}`;
      return { template: null, renderedText: input.caption ? `${label}: ${input.caption}` : label, payload: { [input.type]: content } };
    }
    case "template": {
      const template = await getTemplateRow(db, workspaceId, input.templateId);
      if (!template || !templateFitsSender(template, sender)) {
        throw validationFailed([{ path: "templateId", code: "template_not_found", message: "No template with this id exists for the conversation's number." }]);
      }
      if (template.status.toUpperCase() !== "APPROVED") {
        throw validationFailed([{ path: "templateId", code: "template_not_approved", message: `WhatsApp has not approved ${template.name} (${template.status.toLowerCase()}): only approved templates can be sent.` }]);
      }
      if (template.category.toUpperCase() === "MARKETING" && contact.optedOutAt) {
        throw new ApiError("contact_opted_out", `The contact opted out of marketing messages, so ${template.name} (a marketing template) is not sent. Reply in the customer-service window, or use a utility template.`);
      }
      try {
        return templateReplyContent(template, input.variables);
      } catch (error) {
        if (!(error instanceof TemplateRenderError)) throw error;
        throw validationFailed(error.missing.map((key) => ({ path: `variables.${key}`, code: "required", message: `Give a value for ${key}.` })));
      }
    }
  }
}

/** Queues the reply and returns it as the message it is (status `queued`); the caller dispatches. */
export async function sendReply(db: Executor, viewer: Viewer, conversationId: string, input: ReplyInput, audit: AuditActor, options: ReplyOptions = {}): Promise<PublicMessage> {
  const now = options.now ?? new Date();
  const conversation = await visibleConversationRow(db, viewer, conversationId);
  if (input.type !== "template") {
    const window = serviceWindow(conversation.lastInboundAt, now);
    if (!window.open) {
      throw new ApiError(
        "window_closed",
        window.endsAt
          ? `The customer-service window closed at ${window.endsAt} (24 hours after the contact's last message): only a template can be sent until they write again.`
          : "The contact has not written on this number, so there is no customer-service window: only a template can be sent.",
        { extensions: { windowEndsAt: window.endsAt } },
      );
    }
  }
  const [[contact], [sender]] = await Promise.all([
    db.select().from(contacts).where(and(eq(contacts.workspaceId, viewer.workspaceId), eq(contacts.id, conversation.contactId))).limit(1),
    db.select().from(senders).where(and(eq(senders.workspaceId, viewer.workspaceId), eq(senders.id, conversation.senderId))).limit(1),
  ]);
  if (!sender) {
    throw new ApiError("sender_replaced", "The number of this conversation was replaced or deleted, so nothing can be sent from it. The contact's next message opens a conversation on the current number.", {
      extensions: { senderId: conversation.senderId },
    });
  }
  const composed = await compose(db, viewer.workspaceId, sender, contact!, input, options.checkMedia ?? checkMediaUrl);
  const authorUserId = viewer.actor.type === "user" ? viewer.actor.id : null;
  const stored = await db.transaction(async (tx) => {
    const message = await queueReplyMessage(tx, {
      workspaceId: viewer.workspaceId,
      contactId: contact!.id,
      senderId: sender.id,
      phone: contact!.phoneNumber,
      ...composed,
      authorUserId,
      createdAt: now,
    });
    await tx
      .update(conversations)
      .set({ lastActivityAt: now, lastPreview: composed.renderedText.slice(0, PREVIEW_MAX), lastDirection: "outbound", updatedAt: now })
      .where(eq(conversations.id, conversation.id));
    await recordAudit(tx, {
      workspaceId: viewer.workspaceId,
      actor: audit,
      action: "conversation.replied",
      targetType: "conversation",
      targetId: conversation.id,
      metadata: { messageId: message.id, type: input.type, ...(composed.template ? { template: composed.template.name } : {}) },
    });
    return message;
  });
  return toPublicMessage(stored);
}
