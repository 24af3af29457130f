// Keyword auto-replies, per number: HOURS, ADDRESS, a quick-reply button's payload… answered at once
// with a text or a template. The contact's message just opened the customer-service window, so a
// free-form text is allowed. Opt-out and opt-in keywords keep priority: a message that changed (or
// asked to change) consent is never auto-answered, and no auto-reply may use such a keyword.
//
// The answer is a conversation reply (`source = 'reply'`, no author) queued through the outbox, so
// it is sent, throttled and tracked like any message, and shows in the conversation's timeline.
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { autoReplies, contacts, conversations, senders, templates } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import type { InboundMessage } from "@/lib/channels/types";
import { matchConsentKeyword, normaliseReply } from "@/lib/contacts/opt-out";
import { newId } from "@/lib/crypto/random";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { queueReplyMessage, templateReplyContent, textReplyContent } from "@/lib/outbox/replies";
import { renderTemplate, TemplateRenderError } from "@/lib/templates";
import { templateFitsSender } from "@/lib/templates/service";

export const AUTO_REPLY_TEXT_MAX = 4096;

const storable = (schema: z.ZodString) => schema.refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } });

export const autoReplyInputSchema = z.object({
  senderId: z.string().min(1).max(100),
  keyword: storable(z.string().trim().min(1, "Write the keyword, such as HOURS.").max(64, "At most 64 characters.")),
  reply: z.discriminatedUnion("type", [
    z.object({ type: z.literal("text"), text: storable(z.string().trim().min(1, "Write the answer.").max(AUTO_REPLY_TEXT_MAX, "At most 4,096 characters (WhatsApp's limit).")) }),
    z.object({ type: z.literal("template"), templateId: z.string().min(1).max(100), variables: z.record(z.string().max(200), storable(z.string().max(1024))).default({}) }),
  ]),
  enabled: z.boolean().default(true),
});
export type AutoReplyInput = z.output<typeof autoReplyInputSchema>;

export interface AutoReplyView {
  id: string;
  senderId: string;
  keyword: string;
  reply: { type: "text"; text: string } | { type: "template"; templateId: string; templateName: string | null; variables: Record<string, string> };
  enabled: boolean;
  createdAt: string;
}

type Row = typeof autoReplies.$inferSelect;

function toView(row: Row, templateName: string | null): AutoReplyView {
  return {
    id: row.id,
    senderId: row.senderId,
    keyword: row.keyword,
    reply: row.replyType === "text" ? { type: "text", text: row.text ?? "" } : { type: "template", templateId: row.templateId ?? "", templateName, variables: row.variables },
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAutoReplies(db: Executor, workspaceId: string): Promise<AutoReplyView[]> {
  const rows = await db
    .select({ row: autoReplies, templateName: templates.name })
    .from(autoReplies)
    .leftJoin(templates, eq(templates.id, autoReplies.templateId))
    .where(eq(autoReplies.workspaceId, workspaceId))
    .orderBy(asc(autoReplies.senderId), asc(autoReplies.keyword));
  return rows.map(({ row, templateName }) => toView(row, templateName));
}

/** Checks the input against the workspace (its number, its template, consent keywords); the row's columns. */
async function validated(db: Executor, workspaceId: string, input: AutoReplyInput) {
  const keyword = normaliseReply(input.keyword);
  if (keyword === "") throw validationFailed([{ path: "keyword", code: "invalid_value", message: "The keyword needs at least one letter or digit." }]);
  if (matchConsentKeyword(keyword)) {
    throw validationFailed([{ path: "keyword", code: "consent_keyword", message: `${keyword} changes the contact's consent (opt-out and opt-in keywords keep priority), so it cannot be an auto-reply.` }]);
  }
  const [sender] = await db.select().from(senders).where(and(eq(senders.workspaceId, workspaceId), eq(senders.id, input.senderId))).limit(1);
  if (!sender) throw validationFailed([{ path: "senderId", code: "not_found", message: "No number with this id exists in your workspace." }]);
  if (input.reply.type === "text") return { keyword, senderId: sender.id, replyType: "text" as const, text: input.reply.text, templateId: null, variables: {} };
  const [template] = await db.select().from(templates).where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, input.reply.templateId))).limit(1);
  if (!template || !templateFitsSender(template, sender)) throw validationFailed([{ path: "reply.templateId", code: "template_not_found", message: "No template with this id exists for this number." }]);
  try {
    renderTemplate(template, input.reply.variables);
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    throw validationFailed(error.missing.map((key) => ({ path: `reply.variables.${key}`, code: "required", message: `Give a value for ${key}.` })));
  }
  return { keyword, senderId: sender.id, replyType: "template" as const, text: null, templateId: template.id, variables: input.reply.variables };
}

const keywordTaken = (keyword: string) => conflict(`This number already answers ${keyword} automatically: change that auto-reply instead.`, "auto_reply_exists");

export async function createAutoReply(db: Executor, workspaceId: string, input: AutoReplyInput, actor: AuditActor): Promise<AutoReplyView> {
  const values = await validated(db, workspaceId, input);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(autoReplies)
      .values({ id: newId("arp"), workspaceId, ...values, enabled: input.enabled })
      .onConflictDoNothing()
      .returning();
    if (!created) throw keywordTaken(values.keyword);
    await recordAudit(tx, { workspaceId, actor, action: "auto_reply.created", targetType: "auto_reply", targetId: created.id, metadata: { keyword: created.keyword, senderId: created.senderId } });
    return created;
  });
  return (await listAutoReplies(db, workspaceId)).find((view) => view.id === row.id)!;
}

export async function updateAutoReply(db: Executor, workspaceId: string, id: string, input: AutoReplyInput, actor: AuditActor): Promise<AutoReplyView> {
  const values = await validated(db, workspaceId, input);
  const [clash] = await db
    .select({ id: autoReplies.id })
    .from(autoReplies)
    .where(and(eq(autoReplies.workspaceId, workspaceId), eq(autoReplies.senderId, values.senderId), eq(autoReplies.keyword, values.keyword)))
    .limit(1);
  if (clash && clash.id !== id) throw keywordTaken(values.keyword);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(autoReplies)
      .set({ ...values, enabled: input.enabled, updatedAt: new Date() })
      .where(and(eq(autoReplies.workspaceId, workspaceId), eq(autoReplies.id, id)))
      .returning();
    if (!updated) throw autoReplyNotFound();
    await recordAudit(tx, { workspaceId, actor, action: "auto_reply.updated", targetType: "auto_reply", targetId: id, metadata: { keyword: updated.keyword, enabled: updated.enabled } });
    return updated;
  });
  return (await listAutoReplies(db, workspaceId)).find((view) => view.id === row.id)!;
}

const autoReplyNotFound = () => notFound("No auto-reply with this id exists in your workspace.");

export async function deleteAutoReply(db: Executor, workspaceId: string, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(autoReplies).where(and(eq(autoReplies.workspaceId, workspaceId), eq(autoReplies.id, id))).returning();
    if (!deleted) throw autoReplyNotFound();
    await recordAudit(tx, { workspaceId, actor, action: "auto_reply.deleted", targetType: "auto_reply", targetId: id, metadata: { keyword: deleted.keyword } });
  });
}

/** The words of a message an auto-reply may match: typed text, a button's or reply's title and payload. */
function candidatesOf(message: Pick<InboundMessage, "kind" | "text" | "payload">): string[] {
  const values = message.kind === "text" ? [message.text] : message.kind === "button" || message.kind === "interactive" ? [message.payload, message.text] : [];
  return values.filter((value): value is string => typeof value === "string").map(normaliseReply).filter((value) => value !== "");
}

/** A newly stored message of a contact, with whether it touched consent. */
export interface AnswerableMessage {
  message: Pick<InboundMessage, "kind" | "text" | "payload" | "at">;
  contactId: string;
  consentKeyword: boolean;
}

/**
 * Queues the auto-replies the messages ask for, on the number they arrived on; returns how many.
 * One answer per message (the first matching value: payload before title), none for a consent keyword.
 */
export async function answerAutomatically(db: Executor, scope: { workspaceId: string; senderId: string }, stored: readonly AnswerableMessage[], now = new Date()): Promise<number> {
  const wanted = stored
    .filter((entry) => !entry.consentKeyword)
    .map((entry) => ({ ...entry, candidates: candidatesOf(entry.message) }))
    .filter((entry) => entry.candidates.length > 0);
  if (wanted.length === 0) return 0;
  const rules = await db
    .select({ rule: autoReplies, template: templates, sender: senders })
    .from(autoReplies)
    .innerJoin(senders, eq(senders.id, autoReplies.senderId))
    .leftJoin(templates, eq(templates.id, autoReplies.templateId))
    .where(
      and(
        eq(autoReplies.workspaceId, scope.workspaceId),
        eq(autoReplies.senderId, scope.senderId),
        eq(autoReplies.enabled, true),
        inArray(autoReplies.keyword, [...new Set(wanted.flatMap((entry) => entry.candidates))]),
      ),
    );
  if (rules.length === 0) return 0;
  const byKeyword = new Map(rules.map((entry) => [entry.rule.keyword, entry]));
  const phones = new Map(
    (await db.select({ id: contacts.id, phone: contacts.phoneNumber }).from(contacts).where(inArray(contacts.id, [...new Set(wanted.map((entry) => entry.contactId))]))).map((row) => [row.id, row.phone]),
  );
  let queued = 0;
  for (const entry of wanted) {
    const match = entry.candidates.map((candidate) => byKeyword.get(candidate)).find((rule) => rule !== undefined);
    const phone = phones.get(entry.contactId);
    if (!match || !phone) continue;
    const content = compose(match);
    if (!content) continue;
    await db.transaction(async (tx) => {
      await queueReplyMessage(tx, { workspaceId: scope.workspaceId, contactId: entry.contactId, senderId: scope.senderId, phone, ...content, authorUserId: null, autoReplyId: match.rule.id, createdAt: now });
      await tx
        .update(conversations)
        .set({ lastActivityAt: now, lastPreview: content.renderedText.slice(0, 200), lastDirection: "outbound", updatedAt: now })
        .where(and(eq(conversations.workspaceId, scope.workspaceId), eq(conversations.contactId, entry.contactId), eq(conversations.senderId, scope.senderId)));
    });
    queued += 1;
  }
  return queued;
}

/** The answer's content; null when its template no longer fits the number or renders (it is then skipped, not sent wrong). */
function compose({ rule, template, sender }: { rule: Row; template: typeof templates.$inferSelect | null; sender: typeof senders.$inferSelect }) {
  if (rule.replyType === "text") return textReplyContent(rule.text ?? "");
  if (!template || !templateFitsSender(template, sender) || template.status.toUpperCase() !== "APPROVED") return null;
  try {
    return templateReplyContent(template, rule.variables);
  } catch {
    return null;
  }
}
