import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, conversations } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { getConversation } from "@/lib/conversations/service";
import { createTestAccount } from "@/lib/testing/factories";
import { simulateInboundReply, simulateReplySchema } from "./sandbox";

const HOUR = 3_600_000;

describe("a simulated reply's time", () => {
  it("dates the contact's message back, so the demo shows a conversation whose window has closed", async () => {
    const db = await getDb();
    const owner = await createTestAccount({ name: "Sandra Sandbox" });
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId: owner.workspaceId, phoneNumber: "+14155550199", name: "Old Timer" });
    const receivedAt = new Date(Date.now() - 26 * HOUR).toISOString();
    await simulateInboundReply(db, owner.workspaceId, simulateReplySchema.parse({ contactId, text: "Still there?", receivedAt }));
    const [row] = await db.select().from(conversations).where(eq(conversations.contactId, contactId));
    const viewer = { workspaceId: owner.workspaceId, actor: { type: "user" as const, id: owner.id, email: owner.email, name: owner.name }, role: "owner" as const };
    const conversation = await getConversation(db, viewer, row!.id);
    expect(conversation.lastInboundAt).toBe(receivedAt);
    expect(conversation.window).toEqual({ open: false, endsAt: new Date(Date.parse(receivedAt) + 24 * HOUR).toISOString() });
  });

  it("refuses a time in the future or more than 30 days back", () => {
    const base = { contactId: "ctc_x", text: "Hi" };
    expect(simulateReplySchema.safeParse({ ...base, receivedAt: new Date(Date.now() + HOUR).toISOString() }).success).toBe(false);
    expect(simulateReplySchema.safeParse({ ...base, receivedAt: new Date(Date.now() - 31 * 24 * HOUR).toISOString() }).success).toBe(false);
    expect(simulateReplySchema.safeParse({ ...base, receivedAt: "yesterday" }).success).toBe(false);
    expect(simulateReplySchema.safeParse({ ...base, receivedAt: new Date(Date.now() - HOUR).toISOString() }).success).toBe(true);
  });
});
