// Test runs through POST /api/v1/campaigns/{id}/journey/test: the current document, compressed
// waits, test sends, no re-entry rule; another workspace's campaign is 404.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/campaigns/[id]/journey/test/route";
import { getDb, type DB } from "@/db";
import { campaigns } from "@/db/schema";
import { callRoute } from "@/lib/testing/api-factories";
import { createJourneyFixture, historyOf, makeDue, runMessages, runOf, runUntilIdle, sendStep } from "@/lib/testing/journey-factories";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

describe("POST /api/v1/campaigns/{id}/journey/test", () => {
  it("runs the draft revision's journey for one phone with compressed waits and test sends", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "live", steps: [sendStep("live", t, null)], reentry: { rule: "once", periodDays: null } }));
    const draft = {
      firstStepId: "wait",
      steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "draft" }, sendStep("draft", fx.templateId, null)],
    };
    await db.update(campaigns).set({ draftRevision: { journey: draft } }).where(eq(campaigns.id, fx.campaignId));
    const call = () =>
      callRoute<{ id: string; object: string; status: string; version: number; timeScale: number }>(POST, "POST", `/api/v1/campaigns/${fx.campaignId}/journey/test`, {
        key: fx.apiKey,
        params: { id: fx.campaignId },
        body: { phone: "+14155552671", request: { first_name: "Jane", order: "T-1" }, timeScale: 3600 },
      });
    const first = await call();
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ object: "journey_run", status: "active", version: 2, timeScale: 3600 });
    expect(first.headers.get("location")).toBe(`/api/v1/journey-runs/${first.body.id}`);
    // The re-entry rule does not hold a test back; the same draft is not stored twice.
    const second = await call();
    expect(second.body.version).toBe(2);

    await runUntilIdle(db);
    const waiting = await runOf(db, first.body.id);
    expect(waiting.dueAt!.getTime() - Date.now()).toBeLessThan(1_500);
    await makeDue(db, first.body.id);
    await runUntilIdle(db);
    const [message] = await runMessages(db, first.body.id);
    expect(message).toMatchObject({ source: "test", journeyStepId: "draft", status: "queued" });
    expect(message!.renderedText).toContain("Hi Jane, your order T-1 has shipped.");
    expect((await historyOf(db, first.body.id)).map((h) => h.outcome)).toEqual(["waited", "sent"]);
    expect((await runOf(db, first.body.id)).entry).toBe("test");
  });

  it("answers 404 for another workspace's campaign, 422 for a campaign without a journey or a bad time scale", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "live", steps: [sendStep("live", t, null)] }));
    const stranger = await createTriggerFixture();
    const foreign = await callRoute(POST, "POST", `/api/v1/campaigns/${fx.campaignId}/journey/test`, { key: stranger.apiKey, params: { id: fx.campaignId }, body: { phone: "+14155552671" } });
    expect(foreign.status).toBe(404);
    const none = await callRoute(POST, "POST", `/api/v1/campaigns/${stranger.campaignId}/journey/test`, { key: stranger.apiKey, params: { id: stranger.campaignId }, body: { phone: "+14155552671" } });
    expect(none.status).toBe(422);
    const scale = await callRoute(POST, "POST", `/api/v1/campaigns/${fx.campaignId}/journey/test`, { key: fx.apiKey, params: { id: fx.campaignId }, body: { phone: "+14155552671", timeScale: 5000 } });
    expect(scale.status).toBe(422);
  });
});
