import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, campaigns, templates } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { getCampaign } from "@/lib/campaigns/service";
import { countBulkAudience, NO_CONSENT_CODE } from "./audience";
import { getLaunchCheck, launchBulkCampaign, scheduleBulkCampaign } from "./launch";
import { getBulkProgress } from "./progress";
import { launchFigures } from "./launch-figures";
import { bulkMessages, createBulkFixture } from "./test-fixtures";
import { createApiKey } from "@/lib/api-keys/service";
import { callRoute } from "@/lib/testing/api-factories";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { POST as LAUNCH } from "@/app/api/v1/campaigns/[id]/launch/route";

/** Five contacts: 0 and 1 subscribed, 2–4 of unknown consent, and two unsubscribed. */
const fixture = () => createBulkFixture({ contacts: 5, optedOut: 2, consent: (i) => (i < 2 ? "subscribed" : "unknown") });

async function audits(campaignId: string) {
  const db = await getDb();
  return db
    .select({ action: auditEvents.action, metadata: auditEvents.metadata })
    .from(auditEvents)
    .where(and(eq(auditEvents.targetId, campaignId)))
    .orderBy(auditEvents.createdAt);
}

describe("bulk campaigns and consent", () => {
  it("a MARKETING template goes only to subscribed contacts: the others are stored skipped (no_consent), unsubscribed ones never", async () => {
    const fx = await fixture();
    const db = await getDb();
    expect(await countBulkAudience(db, fx.workspaceId, { listIds: [fx.listId], segmentIds: [] })).toEqual({ count: 5, optedOutExcluded: 2, consent: { subscribed: 2, unknown: 3 } });
    const check = await getLaunchCheck(db, fx.workspaceId, fx.campaignId);
    expect(check.consent).toEqual({ marketing: true, includeUnknown: false, subscribed: 2, unknown: 3, unsubscribed: 2, skipped: 3, unknownWithEmptyVariables: 0 });
    expect(check).toMatchObject({ ready: true, audienceCount: 5, sendableNow: 2 });

    await launchBulkCampaign(db, fx.workspaceId, fx.campaignId);
    const stored = await bulkMessages(fx.campaignId);
    const byContact = new Map(stored.map((m) => [m.contactId, m]));
    expect(stored).toHaveLength(5);
    for (const id of fx.contactIds.slice(0, 2)) expect(byContact.get(id)).toMatchObject({ status: "queued", errorCode: null });
    for (const id of fx.contactIds.slice(2)) expect(byContact.get(id)).toMatchObject({ status: "skipped", errorCode: NO_CONSENT_CODE, errorReason: expect.stringContaining("marketing") });
    for (const id of fx.optedOutIds) expect(byContact.has(id)).toBe(false);
    const progress = await getBulkProgress(db, fx.workspaceId, fx.campaignId);
    expect(progress).toMatchObject({ total: 5, funnel: { queued: 2, skipped: 3 } });
    expect(progress.topFailureReasons).toEqual([]);
    const launched = (await audits(fx.campaignId)).find((a) => a.action === "campaign.launched");
    expect(launched?.metadata.consent).toMatchObject({ marketing: true, includeUnknown: false, skipped: 3 });
    expect((await audits(fx.campaignId)).some((a) => a.action === "campaign.unknown_consent_included")).toBe(false);
  });

  it("the launch dialog's figures for either consent choice match what each launch stores (empty blanks among unknown consent included)", async () => {
    // Contacts 1 (subscribed) and 3 (unknown consent) have no code: a variable without a fallback.
    const attributes = (i: number) => (i === 1 || i === 3 ? { name: "A" } : { name: "A", code: `CODE${i}` });
    for (const include of [false, true]) {
      const fx = await createBulkFixture({ contacts: 5, optedOut: 2, consent: (i) => (i < 2 ? "subscribed" : "unknown"), attributes });
      const db = await getDb();
      const check = await getLaunchCheck(db, fx.workspaceId, fx.campaignId);
      expect(check).toMatchObject({ audienceCount: 5, skippedForEmptyVariables: 1, consent: { skipped: 3, unknownWithEmptyVariables: 1 } });
      const figures = launchFigures(check, include);
      await launchBulkCampaign(db, fx.workspaceId, fx.campaignId, { includeUnknownConsent: include, actor: SYSTEM_ACTOR });
      const stored = await bulkMessages(fx.campaignId);
      const count = (predicate: (m: (typeof stored)[number]) => boolean) => stored.filter(predicate).length;
      expect({
        toSend: count((m) => m.status === "queued"),
        skippedForEmptyVariables: count((m) => m.errorCode === "variables_missing"),
        skippedForConsent: count((m) => m.errorCode === NO_CONSENT_CODE),
      }).toEqual({ toSend: figures.toSend, skippedForEmptyVariables: figures.skippedForEmptyVariables, skippedForConsent: figures.skippedForConsent });
      expect(figures).toMatchObject(include ? { toSend: 3, skippedForEmptyVariables: 2, skippedForConsent: 0 } : { toSend: 1, skippedForEmptyVariables: 1, skippedForConsent: 3 });
    }
  });

  it("including unknown consent at launch sends to them too, is stored on the campaign and audited; unsubscribed still never", async () => {
    const fx = await fixture();
    const db = await getDb();
    await launchBulkCampaign(db, fx.workspaceId, fx.campaignId, { includeUnknownConsent: true, actor: SYSTEM_ACTOR });
    const stored = await bulkMessages(fx.campaignId);
    expect(stored.map((m) => m.status)).toEqual(["queued", "queued", "queued", "queued", "queued"]);
    for (const id of fx.optedOutIds) expect(stored.some((m) => m.contactId === id)).toBe(false);
    const campaign = await getCampaign(db, fx.workspaceId, fx.campaignId);
    expect(campaign.bulk?.audience.includeUnknownConsent).toBe(true);
    const included = (await audits(fx.campaignId)).find((a) => a.action === "campaign.unknown_consent_included");
    expect(included?.metadata).toMatchObject({ unknown: 3, subscribed: 2 });
  });

  it("a utility template reaches unknown consent as before; scheduling stores the choice for the start", async () => {
    const fx = await fixture();
    const db = await getDb();
    await db.update(templates).set({ category: "UTILITY" }).where(eq(templates.id, fx.templateId));
    expect((await getLaunchCheck(db, fx.workspaceId, fx.campaignId)).consent).toEqual({ marketing: false, includeUnknown: false, subscribed: 2, unknown: 3, unsubscribed: 2, skipped: 0, unknownWithEmptyVariables: 0 });
    await db.update(templates).set({ category: "MARKETING" }).where(eq(templates.id, fx.templateId));
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await scheduleBulkCampaign(db, fx.workspaceId, fx.campaignId, { scheduledAt: at, timeZone: "UTC", includeUnknownConsent: true });
    const [row] = await db.select({ audience: campaigns.audience }).from(campaigns).where(eq(campaigns.id, fx.campaignId));
    expect(row?.audience).toMatchObject({ includeUnknownConsent: true });
    expect((await getLaunchCheck(db, fx.workspaceId, fx.campaignId)).consent).toMatchObject({ includeUnknown: true, skipped: 0 });

    // A utility campaign launched for real: unknown consent gets it, unsubscribed never.
    const utility = await fixture();
    await db.update(templates).set({ category: "UTILITY" }).where(eq(templates.id, utility.templateId));
    await launchBulkCampaign(db, utility.workspaceId, utility.campaignId);
    const stored = await bulkMessages(utility.campaignId);
    expect(stored.filter((m) => m.status === "queued")).toHaveLength(5);
    for (const id of utility.optedOutIds) expect(stored.some((m) => m.contactId === id)).toBe(false);
  });

  it("the API: the launch check answers the split; the launch takes includeUnknownConsent (422 for a non-boolean)", async () => {
    const fx = await fixture();
    const db = await getDb();
    const { key } = await createApiKey(db, fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, { name: "Consent tests" });
    const params = { id: fx.campaignId };
    const check = await callRoute<Record<string, unknown>>(LAUNCH_CHECK, "GET", `/api/v1/campaigns/${fx.campaignId}/launch-check`, { key, params });
    expect(check.body.consent).toEqual({ marketing: true, includeUnknown: false, subscribed: 2, unknown: 3, unsubscribed: 2, skipped: 3, unknownWithEmptyVariables: 0 });
    const refused = await callRoute(LAUNCH, "POST", `/api/v1/campaigns/${fx.campaignId}/launch`, { key, params, body: { includeUnknownConsent: "yes" } });
    expect(refused.status).toBe(422);
    const launched = await callRoute<Record<string, unknown>>(LAUNCH, "POST", `/api/v1/campaigns/${fx.campaignId}/launch`, { key, params, body: { includeUnknownConsent: true } });
    expect(launched).toMatchObject({ status: 200, body: { status: "sending", bulk: { audience: { includeUnknownConsent: true } } } });
    expect((await bulkMessages(fx.campaignId)).filter((m) => m.status !== "skipped")).toHaveLength(5);
    const included = (await audits(fx.campaignId)).find((a) => a.action === "campaign.unknown_consent_included");
    expect(included).toBeDefined();
  });
});
