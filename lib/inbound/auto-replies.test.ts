import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, conversations, messages, senders, templates } from "@/db/schema";
import type { InboundMessage } from "@/lib/channels/types";
import { newId } from "@/lib/crypto/random";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { ApiError } from "@/lib/http/errors";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { ensureSandboxTemplates } from "@/lib/templates/service";
import { testInboundMessage } from "@/lib/testing/messaging-factories";
import { createTestAccount } from "@/lib/testing/factories";
import { autoReplyInputSchema, createAutoReply, deleteAutoReply, listAutoReplies, updateAutoReply } from "./auto-replies";
import { recordInboundMessages } from "./record";

const phone = () => `+1415558${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;

const inbound = (from: string, overrides: Partial<InboundMessage> = {}) => testInboundMessage(from, { text: "hours?", ...overrides });

async function setup() {
  const db = await getDb();
  const account = await createTestAccount();
  const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, account.workspaceId));
  const from = phone();
  await db.insert(contacts).values({ id: newId("ctc"), workspaceId: account.workspaceId, phoneNumber: from, name: "Ann" });
  return { db, workspaceId: account.workspaceId, senderId: sender!.id, from };
}

const input = (value: unknown) => autoReplyInputSchema.parse(value);
const repliesTo = async (workspaceId: string, from: string) =>
  (await getDb()).select().from(messages).where(and(eq(messages.workspaceId, workspaceId), eq(messages.phoneNumber, from), eq(messages.source, "reply")));

describe("keyword auto-replies", () => {
  it("answers an exact keyword (any case, punctuation around) or a button payload with its text, sent like any reply and shown in the conversation", async () => {
    const { db, workspaceId, senderId, from } = await setup();
    await createAutoReply(db, workspaceId, input({ senderId, keyword: "Hours", reply: { type: "text", text: "We are open 9–18, Monday to Saturday." } }), SYSTEM_ACTOR);
    await createAutoReply(db, workspaceId, input({ senderId, keyword: "ADDRESS_BTN", reply: { type: "text", text: "Calle Mayor 1, Madrid." } }), SYSTEM_ACTOR);

    const outcome = await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: " hours? " })]);
    expect(outcome.autoReplies).toBe(1);
    // Not a whole-message keyword: no answer.
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "what are your hours" })])).autoReplies).toBe(0);
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { kind: "button", text: "Where are you?", payload: "ADDRESS_BTN" })])).autoReplies).toBe(1);

    const replies = await repliesTo(workspaceId, from);
    expect(replies.map((r) => r.renderedText).sort()).toEqual(["Calle Mayor 1, Madrid.", "We are open 9–18, Monday to Saturday."]);
    expect(replies.every((r) => r.authorUserId === null && r.campaignId === null && r.senderId === senderId && r.autoReplyId !== null)).toBe(true);
    const [conversation] = await db.select().from(conversations).where(eq(conversations.workspaceId, workspaceId));
    expect(conversation).toMatchObject({ lastDirection: "outbound", lastPreview: "Calle Mayor 1, Madrid." });
    await runDispatch({ db }, { workspaceIds: [workspaceId], deadlineMs: 10_000 });
    expect((await repliesTo(workspaceId, from)).map((r) => r.status)).toEqual(["sent", "sent"]);
  });

  it("consent keywords keep priority: they cannot be auto-replies, and a STOP is never answered; a redelivery or an old message is not answered", async () => {
    const { db, workspaceId, senderId, from } = await setup();
    await expect(createAutoReply(db, workspaceId, input({ senderId, keyword: "stop", reply: { type: "text", text: "Bye" } }), SYSTEM_ACTOR)).rejects.toMatchObject({ status: 422 });
    await createAutoReply(db, workspaceId, input({ senderId, keyword: "HOURS", reply: { type: "text", text: "9–18" } }), SYSTEM_ACTOR);
    const message = inbound(from, { text: "HOURS" });
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [message])).autoReplies).toBe(1);
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [message])).autoReplies).toBe(0);
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "HOURS", at: new Date(Date.now() - 25 * 3_600_000) })])).autoReplies).toBe(0);
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "STOP" })])).autoReplies).toBe(0);
    expect(await repliesTo(workspaceId, from)).toHaveLength(1);
  });

  it("a template answer is checked when saved; one keyword per number (409); another workspace's rule is 404; disabled rules do nothing", async () => {
    const { db, workspaceId, senderId, from } = await setup();
    await ensureSandboxTemplates(db, workspaceId);
    const [order] = await db.select().from(templates).where(and(eq(templates.workspaceId, workspaceId), eq(templates.name, "order_confirmation")));
    const missing = await createAutoReply(db, workspaceId, input({ senderId, keyword: "ORDER", reply: { type: "template", templateId: order!.id, variables: { "body.1": "there" } } }), SYSTEM_ACTOR).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    expect(missing?.errors?.map((e) => e.path)).toEqual(["reply.variables.body.2"]);
    const rule = await createAutoReply(db, workspaceId, input({ senderId, keyword: "ORDER", reply: { type: "template", templateId: order!.id, variables: { "body.1": "there", "body.2": "(see your email)" } } }), SYSTEM_ACTOR);
    expect(rule.reply).toMatchObject({ type: "template", templateName: "order_confirmation" });
    await expect(createAutoReply(db, workspaceId, input({ senderId, keyword: "order!", reply: { type: "text", text: "x" } }), SYSTEM_ACTOR)).rejects.toMatchObject({ status: 409, code: "auto_reply_exists" });
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "Order" })])).autoReplies).toBe(1);
    expect((await repliesTo(workspaceId, from))[0]).toMatchObject({ templateName: "order_confirmation" });

    await updateAutoReply(db, workspaceId, rule.id, input({ senderId, keyword: "ORDER", reply: { type: "text", text: "x" }, enabled: false }), SYSTEM_ACTOR);
    expect((await recordInboundMessages(db, { workspaceId, senderId }, [inbound(from, { text: "Order" })])).autoReplies).toBe(0);
    const other = await setup();
    await expect(deleteAutoReply(db, other.workspaceId, rule.id, SYSTEM_ACTOR)).rejects.toMatchObject({ status: 404 });
    expect(await listAutoReplies(db, other.workspaceId)).toEqual([]);
    await deleteAutoReply(db, workspaceId, rule.id, SYSTEM_ACTOR);
    expect(await listAutoReplies(db, workspaceId)).toEqual([]);
  });
});
