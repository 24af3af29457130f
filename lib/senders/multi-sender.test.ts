// Several numbers in one workspace: each campaign sends through its own sender, and the numbers of one
// business account share its daily messaging limit, also when their campaigns launch at once.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns, messages, senders, templates } from "@/db/schema";
import { getLaunchCheck, launchBulkCampaign } from "@/lib/bulk/launch";
import { createBulkFixture, PROMO_MESSAGE_CONFIG, testPhone } from "@/lib/bulk/test-fixtures";
import { deployCampaign } from "@/lib/campaigns/lifecycle";
import { createCampaign } from "@/lib/campaigns/service";
import { ApiError } from "@/lib/http/errors";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerCampaign } from "@/lib/trigger/service";
import { createSender } from "./collection";
import { getSenderRow } from "./service";

function triggerRequest(phone: string): Request {
  return new Request("http://localhost/api/campaigns/x/trigger", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone, first_name: "Ana", order: "A-1" }),
  });
}

describe("a workspace with several senders", () => {
  it("queues a trigger campaign's messages for its own sender, and the default's for a campaign that names none", async () => {
    const db = await getDb();
    const fx = await createTriggerFixture({ status: "active" });
    const defaultSender = await getSenderRow(db, fx.workspaceId);
    const second = await createSender(db, fx.workspaceId, { provider: "sandbox", name: "Test number" });

    // A campaign stored before campaigns named their sender sends through the default one.
    await db.update(campaigns).set({ senderId: null }).where(eq(campaigns.id, fx.campaignId));
    await triggerCampaign(db, { workspaceId: fx.workspaceId, apiKeyId: fx.apiKeyId, campaignId: fx.campaignId, request: triggerRequest("+14155552671"), dryRun: false });
    await db.update(campaigns).set({ senderId: second.id }).where(eq(campaigns.id, fx.campaignId));
    await triggerCampaign(db, { workspaceId: fx.workspaceId, apiKeyId: fx.apiKeyId, campaignId: fx.campaignId, request: triggerRequest("+14155552672"), dryRun: false });

    const rows = await db.select({ phone: messages.phoneNumber, senderId: messages.senderId }).from(messages).where(eq(messages.campaignId, fx.campaignId));
    expect(Object.fromEntries(rows.map((r) => [r.phone, r.senderId]))).toEqual({ "+14155552671": defaultSender.id, "+14155552672": second.id });
  });

  it("launches a bulk campaign through its sender, counting the daily limit over every number of the business account", async () => {
    const db = await getDb();
    const fx = await createBulkFixture({ contacts: 8, provider: "whatsapp", tier: "TIER_250" });
    const first = await getSenderRow(db, fx.workspaceId);
    const second = await createSender(db, fx.workspaceId, {
      provider: "whatsapp",
      name: "Second number",
      phoneNumberId: "109876543210987",
      wabaId: first.wabaId!,
      accessToken: "EAAG-second-number",
    });
    // The account's known limit carries over to its new number.
    expect(second.messagingTier).toBe("TIER_250");
    // The limit is the account's: both numbers show it.
    const tiers = await db.select({ tier: senders.messagingTier }).from(senders).where(eq(senders.workspaceId, fx.workspaceId));
    expect(tiers.map((t) => t.tier)).toEqual(["TIER_250", "TIER_250"]);

    const sentAt = new Date(Date.now() - 3_600_000);
    await db.insert(messages).values(
      Array.from({ length: 240 }, (_, i) => ({
        id: `msg_seed${i}${Math.random().toString(36).slice(2, 10)}`,
        workspaceId: fx.workspaceId,
        campaignId: fx.campaignId,
        senderId: first.id,
        phoneNumber: testPhone(),
        templateName: "promo",
        templateLanguage: "en_US",
        renderedText: "Hi",
        status: "delivered" as const,
        source: "trigger" as const,
        sentAt,
        createdAt: sentAt,
      })),
    );
    const onSecond = await createCampaign(db, fx.workspaceId, {
      name: "On the second number",
      kind: "bulk",
      senderId: second.id,
      audience: { listIds: [fx.listId], segmentIds: [] },
      templateId: fx.templateId,
      messageConfig: PROMO_MESSAGE_CONFIG,
    });
    // 240 of 250 used by the first number: 10 left for the account, on either number.
    expect((await getLaunchCheck(db, fx.workspaceId, onSecond.id)).tier).toMatchObject({ usedLast24h: 240, available: 10 });

    // Two launches at once on the two numbers (8 recipients each): one fits, the other is refused.
    const results = await Promise.allSettled([launchBulkCampaign(db, fx.workspaceId, fx.campaignId), launchBulkCampaign(db, fx.workspaceId, onSecond.id)]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0]!.reason as ApiError).errors?.map((e) => e.code)).toEqual(["tier_exceeded"]);

    const launched = results[0]!.status === "fulfilled" ? { campaignId: fx.campaignId, senderId: first.id } : { campaignId: onSecond.id, senderId: second.id };
    const queued = await db.select({ senderId: messages.senderId, source: messages.source }).from(messages).where(eq(messages.campaignId, launched.campaignId));
    expect(queued.filter((m) => m.source === "bulk").map((m) => m.senderId)).toEqual(Array(8).fill(launched.senderId));
  });

  it("deploys a campaign only with a template of its sender's business account", async () => {
    const db = await getDb();
    const fx = await createTriggerFixture({ status: "draft" });
    const fr = await createSender(db, fx.workspaceId, { provider: "whatsapp", name: "FR", phoneNumberId: "106540352242922", wabaId: "102290129340398", accessToken: "EAAG-fr" });
    const de = await createSender(db, fx.workspaceId, { provider: "whatsapp", name: "DE", phoneNumberId: "106540352249999", wabaId: "102290129349999", accessToken: "EAAG-de" });
    await db.update(templates).set({ account: "waba:102290129340398" }).where(eq(templates.id, fx.templateId));
    await db.update(campaigns).set({ senderId: de.id }).where(eq(campaigns.id, fx.campaignId));
    const refused = await deployCampaign(db, fx.workspaceId, fx.campaignId).catch((error: unknown) => error as ApiError);
    expect((refused as ApiError).errors?.map((e) => e.code)).toContain("template_unavailable");
    await db.update(campaigns).set({ senderId: fr.id }).where(eq(campaigns.id, fx.campaignId));
    expect((await deployCampaign(db, fx.workspaceId, fx.campaignId)).status).toBe("active");
  });
});
