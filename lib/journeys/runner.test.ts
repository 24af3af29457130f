// The runner's guarantees: a crash between steps resumes without sending twice, concurrent passes
// take each step once, and a new version applies to new runs only.
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { campaigns, journeyRuns, journeyVersions, templates } from "@/db/schema";
import { SANDBOX_EXTERNAL_PREFIX } from "@/lib/templates/service";
import { deployCampaign, pauseCampaign, resumeCampaign } from "@/lib/campaigns/lifecycle";
import { addJourneyCampaign, createJourneyFixture, historyOf, runMessages, runOf, runUntilIdle, sendStep, setLiveJourney, triggerJourney } from "@/lib/testing/journey-factories";
import { advanceRun, runDueRuns } from "./runner";
import { loadJourneyVersion, recordJourneyVersion } from "./versions";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

const twoSends = (t: string) => ({
  firstStepId: "one",
  steps: [sendStep("one", t, "two"), sendStep("two", t, null)],
});

describe("exactly once", () => {
  it("a crash after a step's effects rolls them back with the advance; the next pass sends each message once", async () => {
    const fx = await createJourneyFixture(twoSends);
    const run = (await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "A" })).body as { id: string };
    await expect(
      advanceRun(db, run.id, {
        afterStep: (step) => {
          if (step.id === "two") throw new Error("crash");
        },
      }),
    ).rejects.toThrow("crash");
    expect(await runMessages(db, run.id)).toHaveLength(0);
    expect((await runOf(db, run.id)).stepId).toBe("one");
    await runUntilIdle(db);
    const sent = await runMessages(db, run.id);
    expect(sent.map((m) => m.journeyStepId)).toEqual(["one", "two"]);
    expect((await historyOf(db, run.id)).map((h) => h.outcome)).toEqual(["sent", "sent"]);
  });

  it("two passes at once take each run's steps once", async () => {
    const fx = await createJourneyFixture(twoSends);
    const body = Array.from({ length: 6 }, (_, i) => ({ phone: `+1415555260${i}`, first_name: "J", order: `O${i}` }));
    const runs = ((await triggerJourney(fx, body)).body as { data: { id: string }[] }).data;
    await Promise.all([runDueRuns(db), runDueRuns(db), runDueRuns(db)]);
    await runUntilIdle(db);
    for (const run of runs) {
      expect((await runMessages(db, run.id)).map((m) => m.journeyStepId)).toEqual(["one", "two"]);
      expect((await runOf(db, run.id)).status).toBe("completed");
    }
  });
});

describe("frequency cap", () => {
  // Two journeys under a workspace-wide cap of one, each at its send step for the same contacts,
  // advanced at the same moment: each run counted before the other stored its message.
  it("holds for two runs of one contact advanced at the same moment", async () => {
    const single = (t: string) => ({ firstStepId: "one", steps: [sendStep("one", t, null)] });
    const fx = await createJourneyFixture(single);
    const other = await addJourneyCampaign(fx, single);
    await db.update(campaigns).set({ sendPolicy: { frequencyCap: { limit: 1, periodHours: 24, scope: "workspace" } } }).where(inArray(campaigns.id, [fx.campaignId, other]));
    const body = Array.from({ length: 6 }, (_, i) => ({ phone: `+1415555270${i}`, first_name: "J", order: `O${i}` }));
    const pairs = await Promise.all(
      [fx.campaignId, other].map(async (campaignId) => ((await triggerJourney({ ...fx, campaignId }, body)).body as { data: { id: string }[] }).data.map((run) => run.id)),
    );
    await Promise.all(pairs[0]!.flatMap((runId, i) => [advanceRun(db, runId), advanceRun(db, pairs[1]![i]!)]));
    for (const [i, runId] of pairs[0]!.entries()) {
      const outcomes = [(await historyOf(db, runId))[0]?.outcome, (await historyOf(db, pairs[1]![i]!))[0]?.outcome];
      expect(outcomes.sort()).toEqual(["sent", "skipped"]);
    }
  });
});

describe("versions", () => {
  it("records a version only when the document changed; running runs keep theirs", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "wait",
      steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 60 }, next: "old" }, sendStep("old", t, null)],
    }));
    expect(await recordJourneyVersion(db, fx.campaignId)).toBe(1);
    const first = (await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "A" })).body as { id: string };
    await runUntilIdle(db);

    await setLiveJourney(db, fx.campaignId, {
      firstStepId: "wait",
      steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 60 }, next: "new" }, sendStep("new", fx.templateId, null)],
    });
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, fx.campaignId));
    expect(campaign!.journeyVersion).toBe(2);
    const second = (await triggerJourney(fx, { phone: "+14155552672", first_name: "Joe", order: "B" })).body as { id: string };
    await runUntilIdle(db);
    expect(await runOf(db, first.id)).toMatchObject({ version: 1 });
    expect(await runOf(db, second.id)).toMatchObject({ version: 2 });

    await db.update(journeyRuns).set({ dueAt: new Date(Date.now() - 1000) });
    await runUntilIdle(db);
    expect((await runMessages(db, first.id)).map((m) => m.journeyStepId)).toEqual(["old"]);
    expect((await runMessages(db, second.id)).map((m) => m.journeyStepId)).toEqual(["new"]);
    expect((await loadJourneyVersion(db, fx.campaignId, 1))!.steps[1]!.id).toBe("old");
  });

  it("deploy and resume record the live journey in their transaction", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "one", steps: [sendStep("one", t, null)] }));
    // The campaign's own template must fit its sandbox sender to pass today's deploy checks.
    await db.update(templates).set({ externalId: `${SANDBOX_EXTERNAL_PREFIX}order`, account: "sandbox" }).where(eq(templates.id, fx.templateId));
    await db.delete(journeyVersions).where(eq(journeyVersions.campaignId, fx.campaignId));
    await db.update(campaigns).set({ status: "draft", journeyVersion: 0 }).where(eq(campaigns.id, fx.campaignId));
    await deployCampaign(db, fx.workspaceId, fx.campaignId);
    let [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, fx.campaignId));
    expect(campaign!.journeyVersion).toBe(1);
    await pauseCampaign(db, fx.workspaceId, fx.campaignId);
    await db.update(campaigns).set({ journey: { ...campaign!.journey!, entryEvents: ["signup"] } }).where(eq(campaigns.id, fx.campaignId));
    await resumeCampaign(db, fx.workspaceId, fx.campaignId);
    [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, fx.campaignId));
    expect(campaign!.journeyVersion).toBe(2);
    expect(await db.select().from(journeyVersions).where(eq(journeyVersions.campaignId, fx.campaignId))).toHaveLength(2);
  });
});
