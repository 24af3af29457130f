import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as trigger from "@/app/api/campaigns/[id]/trigger/route";
import { getDb } from "@/db";
import { messages, templates } from "@/db/schema";
import { templateChecks } from "@/lib/campaigns/checks";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { applyTemplateStatus, templateBanner } from "./review";

async function triggerOnce(campaignId: string, key: string) {
  const request = new Request(`http://localhost/api/campaigns/${campaignId}/trigger`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ phone: "+14155552671", order: "ORD-1", first_name: "Jane" }),
  });
  return trigger.POST(request, { params: Promise.resolve({ id: campaignId }) });
}

describe("a paused or disabled template blocks its campaigns", () => {
  it("refuses trigger requests with WhatsApp's reason, shows a banner, and sends again once approved", async () => {
    const db = await getDb();
    const fx = await createTriggerFixture();
    expect(await templateBanner(db, fx.workspaceId, fx.templateId)).toBeNull();
    await applyTemplateStatus(db, fx.workspaceId, "", { externalId: null, name: "order_shipped", language: "en_US", status: "PAUSED", reason: "FIRST_PAUSE: Paused for 3 hours." });

    const refused = await triggerOnce(fx.campaignId, fx.apiKey);
    expect(refused.status).toBe(409);
    const problem = (await refused.json()) as { code: string; detail: string };
    expect(problem.detail).toContain("WhatsApp paused the template “order_shipped”");
    expect(problem.detail).toContain("Paused for 3 hours.");
    expect(await db.select().from(messages).where(eq(messages.campaignId, fx.campaignId))).toEqual([]);
    expect(await templateBanner(db, fx.workspaceId, fx.templateId)).toMatchObject({ status: "PAUSED", title: "The campaign's template is paused" });

    await applyTemplateStatus(db, fx.workspaceId, "", { externalId: null, name: "order_shipped", language: "en_US", status: "DISABLED", reason: null });
    expect((await templateBanner(db, fx.workspaceId, fx.templateId))!.message).toMatch(/disabled .*Write a new template/);

    await applyTemplateStatus(db, fx.workspaceId, "", { externalId: null, name: "order_shipped", language: "en_US", status: "APPROVED", reason: "ignored" });
    const [row] = await db.select().from(templates).where(eq(templates.id, fx.templateId));
    expect(row).toMatchObject({ status: "APPROVED", statusReason: null });
    expect(await templateBanner(db, fx.workspaceId, fx.templateId)).toBeNull();
    expect((await triggerOnce(fx.campaignId, fx.apiKey)).status).toBe(202);
  });

  it("the launch and deploy checks name the pause and its reason", () => {
    const [error] = templateChecks({ name: "winter_sale", status: "PAUSED", statusReason: "Low quality.", parameterFormat: "NAMED", components: [], availableForSender: true });
    expect(error).toMatchObject({ path: "message.template", code: "template_not_approved" });
    expect(error!.message).toBe("WhatsApp paused the template “winter_sale” for low quality: nothing is sent with it until WhatsApp lifts the pause. Low quality.");
  });
});
