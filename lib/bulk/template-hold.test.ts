import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as webhookPost } from "@/app/api/webhooks/whatsapp/route";
import { getDb } from "@/db";
import { auditEvents, senders, templates } from "@/db/schema";
import { getChannel } from "@/lib/channels";
import { templateAccount } from "@/lib/senders/service";
import { connectTestWhatsAppSender } from "@/lib/testing/messaging-factories";
import { getCampaign } from "@/lib/campaigns/service";
import { resumeCampaign } from "@/lib/campaigns/lifecycle";
import { applyTemplateStatus } from "@/lib/templates/review";
import { launchBulkCampaign } from "./launch";
import { holdCampaignsOfBlockedTemplates } from "./template-hold";
import { createBulkFixture } from "./test-fixtures";

async function setTemplateStatus(templateId: string, workspaceId: string, status: string, reason: string | null) {
  const db = await getDb();
  const [row] = await db.select().from(templates).where(eq(templates.id, templateId));
  return applyTemplateStatus(db, workspaceId, row!.account, { externalId: row!.externalId, name: row!.name, language: row!.language, status, reason });
}

describe("a bulk campaign whose template WhatsApp pauses or disables", () => {
  it("is paused by the system (audited with the reason), refuses to resume until the template is approved again", async () => {
    const fx = await createBulkFixture({ contacts: 3 });
    const other = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    await launchBulkCampaign(db, fx.workspaceId, fx.campaignId);
    await launchBulkCampaign(db, other.workspaceId, other.campaignId);

    const changed = await setTemplateStatus(fx.templateId, fx.workspaceId, "PAUSED", "FIRST_PAUSE: Paused for 3 hours.");
    expect(changed).toEqual([fx.templateId]);
    expect(await holdCampaignsOfBlockedTemplates(db, fx.workspaceId, changed)).toEqual([fx.campaignId]);
    expect((await getCampaign(db, fx.workspaceId, fx.campaignId)).status).toBe("paused");
    // Another workspace's campaign on a template of the same name keeps sending.
    expect((await getCampaign(db, other.workspaceId, other.campaignId)).status).toBe("sending");
    const [audit] = await db
      .select({ action: auditEvents.action, metadata: auditEvents.metadata, actorUserId: auditEvents.actorUserId })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, fx.campaignId), eq(auditEvents.action, "campaign.paused")));
    expect(audit).toMatchObject({ actorUserId: null, metadata: { reason: "template_blocked", templateStatus: "PAUSED", detail: expect.stringContaining("Paused for 3 hours") } });

    await expect(resumeCampaign(db, fx.workspaceId, fx.campaignId)).rejects.toMatchObject({ code: "template_blocked" });
    expect((await getCampaign(db, fx.workspaceId, fx.campaignId)).status).toBe("paused");
    // Holding again is a no-op: nothing is sending any more.
    expect(await holdCampaignsOfBlockedTemplates(db, fx.workspaceId, changed)).toEqual([]);

    await setTemplateStatus(fx.templateId, fx.workspaceId, "APPROVED", null);
    expect(await holdCampaignsOfBlockedTemplates(db, fx.workspaceId, [fx.templateId])).toEqual([]);
    expect((await resumeCampaign(db, fx.workspaceId, fx.campaignId)).status).toBe("sending");
  });

  it("is paused when WhatsApp's signed message_template_status_update says PAUSED", async () => {
    const fx = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    await launchBulkCampaign(db, fx.workspaceId, fx.campaignId);
    // The workspace's number moves to the Cloud API; its template lives in that business account.
    const sender = await connectTestWhatsAppSender(fx.workspaceId);
    const [row] = await db.select().from(senders).where(eq(senders.workspaceId, fx.workspaceId));
    await db.update(templates).set({ externalId: "987654321", account: templateAccount(row!) }).where(eq(templates.id, fx.templateId));
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: sender.wabaId, time: 1, changes: [{ field: "message_template_status_update", value: { event: "PAUSED", message_template_id: 987654321, message_template_name: "promo", message_template_language: "en_US", reason: "NONE" } }] }],
    });
    const response = await webhookPost(
      new Request("http://localhost/api/webhooks/whatsapp", { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": getChannel("whatsapp").webhook!.sign(raw, sender.appSecret) }, body: raw }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    expect((await getCampaign(db, fx.workspaceId, fx.campaignId)).status).toBe("paused");
  });
});
