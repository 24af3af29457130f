import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, conversations, inboundMessages, messages, workspaces } from "@/db/schema";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { createBulkFixture } from "@/lib/bulk/test-fixtures";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { advanceSandboxDeliveries } from "@/lib/outbox/sandbox-deliveries";
import { SANDBOX_CAMPAIGN_REPLIES, SANDBOX_REPLY_AFTER_READ_MS, simulateSandboxCampaignReplies } from "./sandbox-campaign-replies";

describe("a sandbox bulk campaign's audience answers", () => {
  it("four contacts reply once they have read it: three questions into the inbox and one STOP that opts out; running again adds nothing", async () => {
    const db = await getDb();
    const fixture = await createBulkFixture({ contacts: 12 });
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    await runDispatch({ db }, { workspaceIds: [fixture.workspaceId], deadlineMs: 20_000 });
    const sent = await db.select().from(messages).where(and(eq(messages.campaignId, fixture.campaignId), isNotNull(messages.sentAt)));
    expect(sent).toHaveLength(12);

    // Nothing is read yet: nobody answers.
    expect(await simulateSandboxCampaignReplies(db, new Date())).toBe(0);
    const later = new Date(Date.now() + 60_000);
    await advanceSandboxDeliveries(db, later);
    // A workspace that did not ask for it hears nothing.
    expect(await simulateSandboxCampaignReplies(db, later)).toBe(0);
    await db.update(workspaces).set({ sandboxAudienceReplies: true }).where(eq(workspaces.id, fixture.workspaceId));
    expect(await simulateSandboxCampaignReplies(db, later)).toBe(4);
    expect(await simulateSandboxCampaignReplies(db, later)).toBe(0);

    const replies = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, fixture.workspaceId));
    expect(replies.map((r) => r.text).sort()).toEqual(Object.values(SANDBOX_CAMPAIGN_REPLIES).sort());
    for (const reply of replies) {
      expect(reply.campaignId).toBe(fixture.campaignId);
      expect(reply.replyToMessageId).not.toBeNull();
      const [answered] = await db.select().from(messages).where(eq(messages.id, reply.replyToMessageId!));
      expect(answered!.repliedAt!.getTime()).toBe(answered!.readAt!.getTime() + SANDBOX_REPLY_AFTER_READ_MS);
    }
    expect(await db.select().from(conversations).where(eq(conversations.workspaceId, fixture.workspaceId))).toHaveLength(4);
    const stop = replies.find((r) => r.text === "STOP")!;
    const [stopped] = await db.select().from(contacts).where(eq(contacts.id, stop.contactId!));
    expect(stopped!.optedOutAt).not.toBeNull();
  });
});
