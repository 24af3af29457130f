// Entering journey runs through the trigger: the answer per item, re-entry rules, opt-outs,
// idempotent replays, and the trigger as an event for other journeys' runs.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { contacts, journeyRuns } from "@/db/schema";
import type { JourneyInput } from "@/lib/campaigns/journey";
import {
  addJourneyCampaign,
  createJourneyFixture,
  historyOf,
  runMessages,
  runOf,
  runsOfCampaign,
  runUntilIdle,
  sendStep,
  triggerJourney,
} from "@/lib/testing/journey-factories";
import { newId } from "@/lib/crypto/random";
import { createTriggerCampaign } from "@/lib/testing/trigger-factories";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

const waitThenSend = (reentry: JourneyInput["reentry"]) => (templateId: string): JourneyInput => ({
  firstStepId: "wait",
  steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "send" }, sendStep("send", templateId, null)],
  reentry,
});

describe("entering from the trigger", () => {
  it("answers a journey_run per item, stores the context and runs the first step", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    const outcome = await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "ORD-1" });
    expect(outcome.status).toBe(202);
    const body = outcome.body as { id: string; object: string; status: string; campaignId: string; phone: string; createdAt: string };
    expect(body).toMatchObject({ object: "journey_run", status: "active", campaignId: fx.campaignId, phone: "+14155552671" });
    expect(body.id).toMatch(/^run_/);
    expect(outcome.headers.Location).toBe(`/api/v1/journey-runs/${body.id}`);
    expect(outcome).toMatchObject({ queued: false, enteredRuns: true });

    const run = await runOf(db, body.id);
    expect(run.status).toBe("active");
    expect(run.context).toEqual({ attributes: { name: "Jane", order_id: "ORD-1" }, fields: { phone: "+14155552671", first_name: "Jane", order: "ORD-1" } });
    const [contact] = await db.select().from(contacts).where(eq(contacts.id, run.contactId));
    expect(contact!.name).toBe("Jane");

    await runUntilIdle(db);
    const done = await runOf(db, body.id);
    expect(done.status).toBe("completed");
    const sent = await runMessages(db, body.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ status: "queued", journeyStepId: "hello", campaignId: fx.campaignId, source: "trigger" });
    expect(sent[0]!.renderedText).toContain("Hi Jane, your order ORD-1 has shipped.");
    expect(done.lastMessageId).toBe(sent[0]!.id);
    expect(await historyOf(db, body.id)).toEqual([{ step: "hello", outcome: "sent", detail: null, messageId: sent[0]!.id }]);
  });

  it("still validates items as the trigger does (422, nothing entered)", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    await expect(triggerJourney(fx, [{ phone: "+14155552671" }, { phone: "nope" }])).rejects.toMatchObject({ status: 422 });
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(0);
  });

  it("once: a contact enters once ever; a second item for the same phone in one request is refused", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "once", periodDays: null }));
    const first = await triggerJourney(fx, [{ phone: "+14155552671" }, { phone: "+14155552671" }, { phone: "+14155552672" }]);
    const answers = (first.body as { data: { status: string; error?: { code: string } }[] }).data;
    expect(answers.map((a) => a.status)).toEqual(["active", "skipped", "active"]);
    expect(answers[1]!.error!.code).toBe("journey_reentry");
    // Ended runs count too.
    await db.execute(sql`update journey_runs set status = 'completed', due_at = null where campaign_id = ${fx.campaignId}`);
    const again = await triggerJourney(fx, { phone: "+14155552671" });
    expect(again.body).toMatchObject({ status: "skipped", error: { code: "journey_reentry" } });
    expect(again.headers.Location).toBeUndefined();
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(2);
  });

  it("if_not_active: again once the run is over", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "if_not_active", periodDays: null }));
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "active" });
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "skipped", error: { code: "journey_reentry" } });
    await db.execute(sql`update journey_runs set status = 'exited', due_at = null where campaign_id = ${fx.campaignId}`);
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "active" });
  });

  it("once_per_period: again after the period", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "once_per_period", periodDays: 7 }));
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "active" });
    await db.execute(sql`update journey_runs set status = 'completed', due_at = null where campaign_id = ${fx.campaignId}`);
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "skipped" });
    await db.execute(sql`update journey_runs set entered_at = now() - interval '8 days' where campaign_id = ${fx.campaignId}`);
    expect((await triggerJourney(fx, { phone: "+14155552671" })).body).toMatchObject({ status: "active" });
  });

  it("every_time: each item starts a run", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "every_time", periodDays: null }));
    const outcome = await triggerJourney(fx, [{ phone: "+14155552671" }, { phone: "+14155552671" }]);
    expect((outcome.body as { data: { status: string }[] }).data.map((a) => a.status)).toEqual(["active", "active"]);
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(2);
  });

  // A shop's webhook delivered twice at once, or two of its events for one checkout: on Postgres
  // each request is its own transaction, and both would find no run of the other's.
  it.each([
    { rule: "if_not_active", periodDays: null },
    { rule: "once", periodDays: null },
    { rule: "once_per_period", periodDays: 1 },
  ] as const)("$rule holds for requests for one contact at the same moment, new contact or stored", async (reentry) => {
    const fx = await createJourneyFixture(waitThenSend(reentry));
    await db.insert(contacts).values({ id: newId("ct"), workspaceId: fx.workspaceId, phoneNumber: "+14155552672" });
    for (const phone of ["+14155552671", "+14155552672"]) {
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => triggerJourney(fx, { phone })));
      const statuses = outcomes.map((outcome) => (outcome.body as { status: string }).status).sort();
      expect(statuses).toEqual(["active", ...Array(7).fill("skipped")]);
    }
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(2);
  });

  it("an opted-out contact of a campaign that respects opt-outs gets no run", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "every_time", periodDays: null }), { respectOptOut: true });
    await triggerJourney(fx, { phone: "+14155552671" });
    await db.execute(sql`update journey_runs set status = 'completed', due_at = null where campaign_id = ${fx.campaignId}`);
    await db.update(contacts).set({ optedOutAt: new Date(), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" }).where(eq(contacts.workspaceId, fx.workspaceId));
    const outcome = await triggerJourney(fx, { phone: "+14155552671", first_name: "Changed" });
    expect(outcome.body).toMatchObject({ status: "skipped", error: { code: "opted_out" } });
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(1);
  });

  it("replays an Idempotency-Key with the answers the first request computed", async () => {
    const fx = await createJourneyFixture(waitThenSend({ rule: "if_not_active", periodDays: null }));
    const headers = { "Idempotency-Key": "journey-key-1" };
    const first = await triggerJourney(fx, [{ phone: "+14155552671" }, { phone: "+14155552671" }], headers);
    const again = await triggerJourney(fx, [{ phone: "+14155552671" }, { phone: "+14155552671" }], headers);
    expect(again.headers["Idempotent-Replay"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((again.body as { data: { status: string }[] }).data.map((a) => a.status)).toEqual(["active", "skipped"]);
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(1);

    const single = await triggerJourney(fx, { phone: "+14155552673" }, { "Idempotency-Key": "journey-key-2" });
    const replay = await triggerJourney(fx, { phone: "+14155552673" }, { "Idempotency-Key": "journey-key-2" });
    expect(replay.body).toEqual(single.body);
    expect(replay.headers.Location).toBe(single.headers.Location);
  });

  it("a trigger of another campaign ends the runs exiting on it and wakes the runs waiting for it", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "wait", steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "send" }, sendStep("send", t, null)] }));
    const orderPlaced = await addJourneyCampaign(fx, (t) => ({ firstStepId: "thanks", steps: [sendStep("thanks", t, null)] }));
    const cart = await addJourneyCampaign(fx, (t) => ({
      firstStepId: "wait",
      steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "remind" }, sendStep("remind", t, null)],
      exitEvents: [{ kind: "campaign", campaignId: orderPlaced }],
    }));
    const waiter = await addJourneyCampaign(fx, () => ({
      firstStepId: "await",
      steps: [
        { id: "await", type: "wait_for_event", event: { kind: "campaign", campaignId: orderPlaced }, timeoutSeconds: 3600, next: "yes", timeoutNext: null },
        { id: "yes", type: "update_contact", set: [{ attribute: "ordered", value: true }], next: null },
      ],
    }));
    const phone = "+14155552671";
    const cartRun = (await triggerJourney({ ...fx, campaignId: cart }, { phone })).body as { id: string };
    const waitRun = (await triggerJourney({ ...fx, campaignId: waiter }, { phone })).body as { id: string };
    const otherPhone = (await triggerJourney({ ...fx, campaignId: cart }, { phone: "+14155552672" })).body as { id: string };
    await runUntilIdle(db);
    expect((await runOf(db, waitRun.id)).status).toBe("waiting");

    // A classic (non-journey) trigger of the order campaign would do the same; here it is a journey too.
    await triggerJourney({ ...fx, campaignId: orderPlaced }, { phone });
    const ended = await runOf(db, cartRun.id);
    expect(ended).toMatchObject({ status: "exited" });
    expect(ended.exitReason).toContain(orderPlaced);
    expect((await runOf(db, otherPhone.id)).status).toBe("waiting");
    await runUntilIdle(db);
    expect((await runOf(db, waitRun.id)).status).toBe("completed");
    expect((await historyOf(db, waitRun.id)).map((h) => h.outcome)).toEqual(["event", "updated"]);
    const [runRow] = await db.select().from(journeyRuns).where(eq(journeyRuns.id, cartRun.id));
    expect(runRow!.endedAt).not.toBeNull();
  });

  it("a classic campaign's trigger is an event too: the runs exiting on it end, their queued message skipped", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    const classic = await createTriggerCampaign(fx.workspaceId, fx.templateId);
    const cart = await addJourneyCampaign(fx, (t) => ({
      firstStepId: "remind",
      steps: [sendStep("remind", t, "wait"), { id: "wait", type: "wait", wait: { kind: "duration", seconds: 60 }, next: null }],
      exitEvents: [{ kind: "campaign", campaignId: classic }],
    }));
    const phone = "+14155552671";
    const run = (await triggerJourney({ ...fx, campaignId: cart }, { phone, first_name: "Jane", order: "A" })).body as { id: string };
    await runUntilIdle(db);
    const outcome = await triggerJourney({ ...fx, campaignId: classic }, { phone, first_name: "Jane", order: "A" });
    expect(outcome.body).toMatchObject({ status: "queued" });
    expect(await runOf(db, run.id)).toMatchObject({ status: "exited" });
    const [reminder] = await runMessages(db, run.id);
    expect(reminder).toMatchObject({ status: "skipped", errorCode: "journey_exited" });
  });
});
