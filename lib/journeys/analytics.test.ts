import { describe, expect, it } from "vitest";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import { insertRun, publishJourney, reminderJourney } from "@/lib/testing/journey-seeds";
import { createTriggerCampaign } from "@/lib/testing/trigger-factories";
import { getDb } from "@/db";
import { templates } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import * as stats from "@/app/api/v1/campaigns/[id]/journey/stats/route";
import { journeyStats } from "./analytics";

const MINUTE = 60_000;

describe("a journey's numbers", () => {
  it("counts runs per step and in total from the runs and their history, test runs left out", async () => {
    const account = await createApiAccount();
    const db = await getDb();
    const templateId = newId("tpl");
    await db.insert(templates).values({ id: templateId, workspaceId: account.workspaceId, name: "cart", language: "en_US", category: "MARKETING", status: "APPROVED", parameterFormat: "POSITIONAL", components: [] });
    const campaignId = await createTriggerCampaign(account.workspaceId, templateId);
    await publishJourney(campaignId, reminderJourney(templateId));
    const t0 = new Date(Date.now() - 60 * MINUTE);
    const after = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
    const w = account.workspaceId;
    // Two completed (one converted after 10 minutes, one after 30), one waiting at the pause, one due at
    // its first step, one exited at the pause, one failed at the second send, one ended by hand.
    await insertRun(w, campaignId, { status: "completed", stepId: null, enteredAt: t0, convertedAt: after(10), history: [["remind", "sent"], ["pause", "waited"], ["again", "sent"]] });
    await insertRun(w, campaignId, { status: "completed", stepId: null, enteredAt: t0, convertedAt: after(30), history: [["remind", "sent"], ["pause", "waited"], ["again", "sent"]] });
    await insertRun(w, campaignId, { status: "waiting", stepId: "pause", enteredAt: t0, history: [["remind", "sent"]] });
    await insertRun(w, campaignId, { status: "active", stepId: "remind", enteredAt: t0 });
    await insertRun(w, campaignId, { status: "exited", stepId: null, enteredAt: t0, convertedAt: after(20), history: [["remind", "sent"], ["pause", "exited"]] });
    await insertRun(w, campaignId, { status: "failed", stepId: null, enteredAt: t0, history: [["remind", "sent"], ["pause", "waited"], ["again", "failed"]] });
    await insertRun(w, campaignId, { status: "ended", stepId: null, enteredAt: t0, history: [["remind", "skipped"], ["pause", "ended"]] });
    await insertRun(w, campaignId, { status: "completed", stepId: null, entry: "test", history: [["remind", "sent"], ["pause", "waited"], ["again", "sent"]] });

    const numbers = await journeyStats(db, w, campaignId);
    expect(numbers.version).toBe(1);
    expect(numbers.steps).toEqual([
      { stepId: "remind", entered: 7, waiting: 1, completed: 6, exited: 0, failed: 0, sent: 5 },
      { stepId: "pause", entered: 6, waiting: 1, completed: 3, exited: 1, failed: 0, sent: 0 },
      { stepId: "again", entered: 3, waiting: 0, completed: 2, exited: 0, failed: 1, sent: 2 },
    ]);
    expect(numbers.totals).toEqual({
      entered: 7,
      active: 1,
      waiting: 1,
      completed: 2,
      exited: 1,
      ended: 1,
      failed: 1,
      converted: 3,
      conversionRate: 0.4286,
      medianSecondsToConvert: 1200,
    });

    const response = await callRoute(stats.GET, "GET", `/api/v1/campaigns/${campaignId}/journey/stats`, { key: account.key, params: { id: campaignId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(numbers);
    const other = await createApiAccount();
    expect((await callRoute(stats.GET, "GET", `/api/v1/campaigns/${campaignId}/journey/stats`, { key: other.key, params: { id: campaignId } })).status).toBe(404);
  });

  it("answers zeros for a campaign with no runs", async () => {
    const account = await createApiAccount();
    const campaignId = await createTriggerCampaign(account.workspaceId, null as unknown as string);
    expect(await journeyStats(await getDb(), account.workspaceId, campaignId)).toEqual({
      version: 0,
      steps: [],
      totals: { entered: 0, active: 0, waiting: 0, completed: 0, exited: 0, ended: 0, failed: 0, converted: 0, conversionRate: 0, medianSecondsToConvert: null },
    });
  });
});
