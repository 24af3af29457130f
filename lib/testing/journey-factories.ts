// Test data for journeys: a trigger campaign with a journey document, deployed (its version recorded),
// and helpers to trigger it and run the runner.
import { eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns, journeyRunSteps, journeyRuns, messages } from "@/db/schema";
import { journeySchema, type Journey, type JourneyInput, type JourneyStepInput } from "@/lib/campaigns/journey";
import { recordJourneyVersion } from "@/lib/journeys/versions";
import { runDueRuns } from "@/lib/journeys/runner";
import { triggerCampaign, type TriggerOutcome } from "@/lib/trigger/service";
import { ORDER_MESSAGE_CONFIG, createTriggerCampaign, createTriggerFixture, type TriggerFixture } from "./trigger-factories";

export interface JourneyFixture extends TriggerFixture {
  journey: Journey;
}

/** A send step of the fixture's order template. */
export function sendStep(id: string, templateId: string, next: string | null, extra: Partial<JourneyStepInput> = {}): JourneyStepInput {
  return { id, type: "send", templateId, messageConfig: ORDER_MESSAGE_CONFIG, next, ...extra } as JourneyStepInput;
}

/** Sets a campaign's live journey and records its version, as a deploy does. */
export async function setLiveJourney(db: Executor, campaignId: string, journey: JourneyInput): Promise<Journey> {
  const parsed = journeySchema.parse(journey);
  await db.update(campaigns).set({ journey: parsed as unknown as Record<string, unknown> }).where(eq(campaigns.id, campaignId));
  await recordJourneyVersion(db, campaignId);
  return parsed;
}

/** An active trigger campaign (the order fixture) whose journey `build(templateId)` returns. */
export async function createJourneyFixture(build: (templateId: string) => JourneyInput, options: { respectOptOut?: boolean } = {}): Promise<JourneyFixture> {
  const db = await getDb();
  const fx = await createTriggerFixture();
  if (options.respectOptOut !== undefined) await db.update(campaigns).set({ respectOptOut: options.respectOptOut }).where(eq(campaigns.id, fx.campaignId));
  const journey = await setLiveJourney(db, fx.campaignId, build(fx.templateId));
  return { ...fx, journey };
}

/** Another journey campaign in the same workspace, on the same template. */
export async function addJourneyCampaign(fx: TriggerFixture, build: (templateId: string) => JourneyInput): Promise<string> {
  const db = await getDb();
  const id = await createTriggerCampaign(fx.workspaceId, fx.templateId);
  await setLiveJourney(db, id, build(fx.templateId));
  return id;
}

export async function triggerJourney(fx: Pick<TriggerFixture, "workspaceId" | "apiKeyId" | "campaignId">, body: unknown, headers: Record<string, string> = {}): Promise<TriggerOutcome> {
  const db = await getDb();
  return triggerCampaign(db, {
    workspaceId: fx.workspaceId,
    apiKeyId: fx.apiKeyId,
    campaignId: fx.campaignId,
    request: new Request("http://localhost/api/v1/campaigns/x/trigger", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }),
    dryRun: false,
  });
}

/** Runner passes until none finds a due run. */
export async function runUntilIdle(db: Executor, maxPasses = 20): Promise<void> {
  for (let i = 0; i < maxPasses; i++) {
    const pass = await runDueRuns(db);
    if (pass.ran === 0 && pass.woken === 0) return;
  }
}

export async function runOf(db: Executor, runId: string) {
  const [run] = await db.select().from(journeyRuns).where(eq(journeyRuns.id, runId));
  return run!;
}

export async function historyOf(db: Executor, runId: string): Promise<{ step: string; outcome: string; detail: string | null; messageId: string | null }[]> {
  const rows = await db.select().from(journeyRunSteps).where(eq(journeyRunSteps.runId, runId)).orderBy(journeyRunSteps.at, journeyRunSteps.id);
  return rows.map((r) => ({ step: r.stepId, outcome: r.outcome, detail: r.detail, messageId: r.messageId }));
}

export async function runMessages(db: Executor, runId: string) {
  return db.select().from(messages).where(eq(messages.journeyRunId, runId)).orderBy(messages.createdAt);
}

/** Makes the run due now (a wait or timeout passed). */
export async function makeDue(db: Executor, runId: string): Promise<void> {
  await db.execute(sql`update journey_runs set due_at = now() - interval '1 second' where id = ${runId}`);
}

export async function runsOfCampaign(db: Executor, campaignId: string) {
  return queryRows<{ id: string; status: string; contact_id: string; version: number }>(db, sql`select id, status, contact_id, version from journey_runs where campaign_id = ${campaignId} order by entered_at, id`);
}
