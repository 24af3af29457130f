// The composition root's campaign kinds: each kind goes through its lifecycle by dispatch on the
// registered kind, and an action a kind does not have answers the same problem as before the
// kinds were registered (the routes' status, problem type and detail).
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, templates } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/service";
import { bulkKind } from "@/lib/bulk/kind";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { cancelBulkCampaign } from "@/lib/bulk/lifecycle";
import { createBulkFixture } from "@/lib/bulk/test-fixtures";
import { campaignKind, registeredCampaignKinds, type CampaignAction } from "@/lib/campaigns/kinds";
import { runLifecycleAction } from "@/lib/campaigns/lifecycle";
import { createCampaign, loadCampaignRow, updateCampaign } from "@/lib/campaigns/service";
import { sendTestMessages } from "@/lib/campaigns/test-send";
import type { CampaignKind } from "@/lib/campaigns/schemas";
import { ApiError } from "@/lib/http/errors";
import { callRoute } from "@/lib/testing/api-factories";
import { createTriggerFixture, ORDER_MESSAGE_CONFIG, ORDER_TRIGGER_CONFIG } from "@/lib/testing/trigger-factories";
import { SANDBOX_EXTERNAL_PREFIX } from "@/lib/templates/service";
import { triggerKind } from "@/lib/trigger/kind";
import { POST as DEPLOY } from "@/app/api/v1/campaigns/[id]/deploy/route";
import { POST as PUBLISH } from "@/app/api/v1/campaigns/[id]/publish/route";
import { POST as LAUNCH } from "@/app/api/v1/campaigns/[id]/launch/route";
import { CAMPAIGN_KIND_DEFINITIONS } from "./campaign-kinds";

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

async function auditActions(workspaceId: string, campaignId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.targetId, campaignId)))
    .orderBy(auditEvents.createdAt);
  return rows.map((row) => row.action);
}

describe("campaign kinds", () => {
  it("registers trigger then bulk, each found by its name", () => {
    expect(registeredCampaignKinds().map((kind) => kind.name)).toEqual(["trigger", "bulk"]);
    expect(CAMPAIGN_KIND_DEFINITIONS).toEqual([triggerKind, bulkKind]);
    expect(campaignKind("trigger")).toBe(triggerKind);
    expect(campaignKind("bulk")).toBe(bulkKind);
    expect(() => campaignKind("journey" as CampaignKind)).toThrow(/not registered/);
  });

  it("takes a trigger campaign through deploy, pause, resume, archive and unarchive by its kind", async () => {
    const db = await getDb();
    const { workspaceId, templateId } = await createTriggerFixture();
    // The fixture's template as the sandbox sender's own.
    await db.update(templates).set({ externalId: `${SANDBOX_EXTERNAL_PREFIX}order` }).where(eq(templates.id, templateId));
    const draft = await createCampaign(db, workspaceId, { name: "Shipping" });
    expect(await triggerKind.checks(db, workspaceId, await loadCampaignRow(db, workspaceId, draft.id))).toEqual([
      expect.objectContaining({ code: "template_missing" }),
    ]);
    await updateCampaign(db, workspaceId, draft.id, { triggerConfig: ORDER_TRIGGER_CONFIG, messageConfig: ORDER_MESSAGE_CONFIG, templateId });
    expect(await triggerKind.checks(db, workspaceId, await loadCampaignRow(db, workspaceId, draft.id))).toEqual([]);

    const run = (action: CampaignAction) => runLifecycleAction(db, workspaceId, draft.id, action);
    expect((await failure(run("pause"))).detail).toBe("A draft trigger campaign cannot be paused.");
    const active = await run("deploy");
    expect(active).toMatchObject({ status: "active", bulk: null, draftRevision: null });
    expect(active.deployedAt).not.toBeNull();
    expect(await run("pause")).toMatchObject({ status: "paused" });
    expect(await run("resume")).toMatchObject({ status: "active" });
    expect(await run("archive")).toMatchObject({ status: "archived" });
    expect(await run("unarchive")).toMatchObject({ status: "draft", deployedAt: null });
    expect(await auditActions(workspaceId, draft.id)).toEqual([
      "campaign.deployed",
      "campaign.paused",
      "campaign.resumed",
      "campaign.archived",
      "campaign.unarchived",
    ]);
  });

  it("takes a bulk campaign through launch, pause, resume, cancel, archive and unarchive by its kind", async () => {
    const db = await getDb();
    const { workspaceId, campaignId } = await createBulkFixture({ contacts: 2 });
    expect(await bulkKind.checks(db, workspaceId, await loadCampaignRow(db, workspaceId, campaignId))).toEqual([]);

    const run = (action: CampaignAction) => runLifecycleAction(db, workspaceId, campaignId, action);
    expect((await failure(run("pause"))).detail).toBe("A draft bulk campaign cannot be paused.");
    expect(await launchBulkCampaign(db, workspaceId, campaignId)).toMatchObject({ status: "sending", deployedAt: null, draftRevision: null });
    expect(await run("pause")).toMatchObject({ status: "paused" });
    expect(await run("resume")).toMatchObject({ status: "sending" });
    expect(await cancelBulkCampaign(db, workspaceId, campaignId)).toMatchObject({ status: "cancelled" });
    expect(await run("archive")).toMatchObject({ status: "archived" });
    // Launched, never completed: back to cancelled, never to a draft that could send again.
    const unarchived = await run("unarchive");
    expect(unarchived).toMatchObject({ status: "cancelled", bulk: { launchedAt: expect.any(String), completedAt: null } });
    expect(await auditActions(workspaceId, campaignId)).toEqual([
      "campaign.launched",
      "campaign.paused",
      "campaign.resumed",
      "campaign.cancelled",
      "campaign.archived",
      "campaign.unarchived",
    ]);
  });

  it("answers an action a kind does not have with the same problem as the routes always did", async () => {
    const db = await getDb();
    const bulk = await createBulkFixture({ contacts: 1 });
    const { key } = await createApiKey(db, bulk.workspaceId, { userId: bulk.userId, ip: null, userAgent: null }, { name: "Kinds" });
    const trigger = await createCampaign(db, bulk.workspaceId, { name: "Webhook" });
    const post = (handler: typeof DEPLOY, id: string, action: string) =>
      callRoute<Record<string, unknown>>(handler, "POST", `/api/v1/campaigns/${id}/${action}`, { key, params: { id } });

    expect((await post(DEPLOY, bulk.campaignId, "deploy")).body).toMatchObject({
      status: 409,
      type: "/docs/api#error-invalid_status_transition",
      detail: "A bulk campaign is launched or scheduled, not deployed.",
    });
    expect((await post(PUBLISH, bulk.campaignId, "publish")).body).toMatchObject({
      status: 409,
      type: "/docs/api#error-nothing_to_publish",
      detail: "This campaign has no unpublished changes.",
    });
    expect((await post(LAUNCH, trigger.id, "launch")).body).toMatchObject({
      status: 409,
      type: "/docs/api#error-not_a_bulk_campaign",
      detail: "This is a trigger campaign; it sends when its webhook is called.",
    });
    const requestForBulk = await failure(sendTestMessages(db, bulk.workspaceId, bulk.campaignId, { phones: ["+351912345678"], request: { phone: "+351912345678" } }));
    expect(requestForBulk).toMatchObject({ status: 422, errors: [expect.objectContaining({ path: "request", code: "not_for_bulk" })] });
    // Nothing changed: the bulk campaign is still the draft it was.
    expect(await loadCampaignRow(db, bulk.workspaceId, bulk.campaignId)).toMatchObject({ status: "draft", version: 1 });
  });
});
