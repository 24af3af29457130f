// The batched pass: send steps (then the end or a duration wait) set-based in one transaction, the
// same history, messages and run states as the one-run-at-a-time runner; everything else left to it.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { campaigns, contacts } from "@/db/schema";
import { createJourneyFixture, historyOf, makeDue, runMessages, runOf, sendStep, triggerJourney, type JourneyFixture } from "@/lib/testing/journey-factories";
import { runDueBatch } from "./batch";
import { ingestEvent } from "./events";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

async function enter(fx: JourneyFixture, phone: string): Promise<string> {
  const outcome = await triggerJourney(fx, { phone, first_name: "Jane", order: "ORD-1" });
  return (outcome.body as { id: string }).id;
}

async function runBatchesUntilIdle(): Promise<void> {
  for (let i = 0; i < 10; i++) if ((await runDueBatch(db)).ran === 0) return;
}

describe("runDueBatch", () => {
  it("sends, waits and ends runs as the runner does, the wait's resumption taken by the runner", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "hello",
      steps: [sendStep("hello", t, "pause"), { id: "pause", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "bye" }, sendStep("bye", t, "done"), { id: "done", type: "end" }],
    }));
    const first = await enter(fx, "+14155552671");
    const second = await enter(fx, "+14155552672");
    await runBatchesUntilIdle();
    for (const runId of [first, second]) {
      const run = await runOf(db, runId);
      expect(run).toMatchObject({ status: "waiting", stepId: "pause", waitToken: "timer" });
      expect(run.dueAt!.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
      const sent = await runMessages(db, runId);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ status: "queued", journeyStepId: "hello", renderedText: expect.stringContaining("Jane") });
      expect(run.lastMessageId).toBe(sent[0]!.id);
      expect(await historyOf(db, runId)).toEqual([{ step: "hello", outcome: "sent", detail: null, messageId: sent[0]!.id }]);
    }

    await makeDue(db, first);
    await runBatchesUntilIdle();
    expect(await runOf(db, first)).toMatchObject({ status: "completed", stepId: null });
    expect((await historyOf(db, first)).map((h) => `${h.step}:${h.outcome}`)).toEqual(["hello:sent", "pause:waited", "bye:sent", "done:completed"]);
    expect(await runMessages(db, first)).toHaveLength(2);
    expect(await runOf(db, second)).toMatchObject({ status: "waiting" });
  });

  it("stores a skipped message for an opted-out contact and ends the run", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, "done"), { id: "done", type: "end" }] }), { respectOptOut: true });
    const runId = await enter(fx, "+14155552673");
    await db.update(contacts).set({ optedOutAt: new Date(), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" }).where(eq(contacts.workspaceId, fx.workspaceId));
    await runBatchesUntilIdle();
    expect(await runOf(db, runId)).toMatchObject({ status: "completed" });
    expect(await runMessages(db, runId)).toMatchObject([{ status: "skipped", errorCode: "opted_out" }]);
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["skipped", "completed"]);
  });

  it("leaves a campaign with a frequency cap to the runner, which applies it", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    await db.update(campaigns).set({ sendPolicy: { frequencyCap: { limit: 1, periodHours: 24, scope: "campaign" } } }).where(eq(campaigns.id, fx.campaignId));
    const runId = await enter(fx, "+14155552674");
    await runBatchesUntilIdle();
    expect(await runOf(db, runId)).toMatchObject({ status: "completed" });
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["sent"]);
  });

  it("an exit skips what the batch queued, also while a dispatcher holds it, but not a request already in flight", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "hello",
      steps: [sendStep("hello", t, "pause"), { id: "pause", type: "wait", wait: { kind: "duration", seconds: 86_400 }, next: null }],
      exitEvents: [{ kind: "event", name: "order_placed" }],
    }));
    const held = await enter(fx, "+14155552675");
    const leaving = await enter(fx, "+14155552676");
    await runBatchesUntilIdle();
    const [heldMessage] = await runMessages(db, held);
    const [leavingMessage] = await runMessages(db, leaving);
    await db.execute(sql`update messages set status = 'sending', locked_until = now() + interval '1 minute', claim_owner = 1 where id in (${heldMessage!.id}, ${leavingMessage!.id})`);
    await db.execute(sql`update messages set in_flight_at = now() where id = ${leavingMessage!.id}`);
    for (const phone of ["+14155552675", "+14155552676"]) await ingestEvent(db, { workspaceId: fx.workspaceId, name: "order_placed", phone, properties: {} });
    expect(await runOf(db, held)).toMatchObject({ status: "exited" });
    expect(await runMessages(db, held)).toMatchObject([{ status: "skipped", errorCode: "journey_exited", lockedUntil: null }]);
    expect(await runOf(db, leaving)).toMatchObject({ status: "exited" });
    expect(await runMessages(db, leaving)).toMatchObject([{ status: "sending" }]);
  });
});
