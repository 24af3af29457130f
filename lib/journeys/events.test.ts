// Events sent to the API: recorded always; exits (with no send after the exit was accepted), waits,
// entries and conversions for a known contact of the workspace only.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { contacts, journeyEvents } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { addJourneyCampaign, createJourneyFixture, historyOf, runMessages, runOf, runsOfCampaign, runUntilIdle, sendStep, triggerJourney } from "@/lib/testing/journey-factories";
import { ingestEvent } from "./events";
import { advanceRun } from "./runner";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

const cartJourney = (t: string) => ({
  firstStepId: "remind",
  steps: [sendStep("remind", t, "later"), { id: "later", type: "wait" as const, wait: { kind: "duration" as const, seconds: 3600 }, next: "again" }, sendStep("again", t, null)],
  exitEvents: [{ kind: "event" as const, name: "order_placed" }],
  goal: { kind: "event" as const, name: "order_placed" },
});

describe("ingestEvent", () => {
  it("records an event for an unknown contact and starts nothing", async () => {
    const fx = await createJourneyFixture(cartJourney);
    const event = await ingestEvent(db, { workspaceId: fx.workspaceId, name: "order_placed", phone: "+14155550000", properties: { total: 10 } });
    expect(event).toMatchObject({ name: "order_placed", contactId: null, runsStarted: 0, runsEnded: 0 });
    expect(event.id).toMatch(/^evt_/);
    const [row] = await db.select().from(journeyEvents).where(eq(journeyEvents.id, event.id));
    expect(row).toMatchObject({ workspaceId: fx.workspaceId, phoneNumber: "+14155550000", properties: { total: 10 } });
    await expect(ingestEvent(db, { workspaceId: fx.workspaceId, name: "x", phone: "not a phone", properties: {} })).rejects.toMatchObject({ status: 422 });
  });

  it("ends the contact's runs that exit on it, skips what they queued, and converts them", async () => {
    const fx = await createJourneyFixture(cartJourney);
    const run = (await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "A" })).body as { id: string };
    const other = (await triggerJourney(fx, { phone: "+14155552672", first_name: "Joe", order: "B" })).body as { id: string };
    const event = await ingestEvent(db, { workspaceId: fx.workspaceId, name: "order_placed", phone: "+14155552671", properties: {} });
    expect(event.runsEnded).toBe(1);
    const ended = await runOf(db, run.id);
    expect(ended).toMatchObject({ status: "exited" });
    expect(ended.exitReason).toMatch(/order_placed/);
    expect(ended.convertedAt).not.toBeNull();
    await runUntilIdle(db);
    expect(await runMessages(db, run.id)).toHaveLength(0);
    expect((await runOf(db, other.id)).status).toBe("waiting");
    expect(await runMessages(db, other.id)).toHaveLength(1);
  });

  it("sends nothing after the exit was accepted, even while the runner holds the run mid-step", async () => {
    const fx = await createJourneyFixture(cartJourney);
    const run = (await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "A" })).body as { id: string };
    const { contactId } = await runOf(db, run.id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sentInside!: () => void;
    const inside = new Promise<void>((resolve) => (sentInside = resolve));
    const advancing = advanceRun(db, run.id, {
      afterStep: async (step) => {
        if (step.id !== "remind") return;
        sentInside();
        await held;
      },
    });
    await inside;
    const exiting = ingestEvent(db, { workspaceId: fx.workspaceId, name: "order_placed", contactId, properties: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await advancing;
    expect((await exiting).runsEnded).toBe(1);
    const [message] = await runMessages(db, run.id);
    expect(message).toMatchObject({ status: "skipped", errorCode: "journey_exited" });
    expect((await historyOf(db, run.id)).map((h) => h.outcome)).toEqual(["sent", "exited"]);
  });

  it("wakes runs waiting for it, and starts journeys entered on it with the event's properties", async () => {
    const fx = await createJourneyFixture(() => ({
      firstStepId: "await",
      steps: [
        { id: "await", type: "wait_for_event", event: { kind: "event", name: "paid" }, timeoutSeconds: 3600, next: "yes", timeoutNext: null },
        { id: "yes", type: "update_contact", set: [{ attribute: "paid", value: true }], next: null },
      ],
    }));
    const starter = await addJourneyCampaign(fx, () => ({
      firstStepId: "check",
      entryEvents: ["paid"],
      steps: [
        { id: "check", type: "branch", paths: [{ name: "Big", conditions: [{ subject: { kind: "trigger", field: "total" }, operator: "greater_than", value: 50 }], next: "big" }], elseNext: null },
        { id: "big", type: "update_contact", set: [{ attribute: "big", value: true }], next: null },
      ],
    }));
    const waiting = (await triggerJourney(fx, { phone: "+14155552671" })).body as { id: string };
    await runUntilIdle(db);
    const event = await ingestEvent(db, { workspaceId: fx.workspaceId, name: "paid", phone: "+14155552671", properties: { total: 80 } });
    expect(event).toMatchObject({ runsStarted: 1, runsEnded: 0 });
    await runUntilIdle(db);
    expect((await historyOf(db, waiting.id)).map((h) => h.outcome)).toEqual(["event", "updated"]);
    const [started] = await runsOfCampaign(db, starter);
    expect(started).toMatchObject({ status: "completed" });
    expect((await historyOf(db, started!.id)).map((h) => h.outcome)).toEqual(["path:0", "updated"]);
    expect((await runOf(db, started!.id)).entry).toBe("event");
  });

  it("events and triggers for one contact at the same moment enter a journey once, and end its other run without a deadlock", async () => {
    const waitThenSend = (t: string) => ({ firstStepId: "wait", steps: [{ id: "wait", type: "wait" as const, wait: { kind: "duration" as const, seconds: 3600 }, next: "send" }, sendStep("send", t, null)] });
    // The journey a checkout starts (or its own trigger), once while a run is going.
    const fx = await createJourneyFixture((t) => ({ ...waitThenSend(t), entryEvents: ["checkout_started"], reentry: { rule: "if_not_active", periodDays: null } }));
    // A run the same moment ends: on the event (its row locked before anything enters) and on the trigger (inside its statement).
    const other = await addJourneyCampaign(fx, (t) => ({
      ...waitThenSend(t),
      exitEvents: [{ kind: "event", name: "checkout_started" }, { kind: "campaign", campaignId: fx.campaignId }],
    }));
    const going = (await triggerJourney({ ...fx, campaignId: other }, { phone: "+14155552671" })).body as { id: string };
    const event = () => ingestEvent(db, { workspaceId: fx.workspaceId, name: "checkout_started", phone: "+14155552671", properties: {} });
    const trigger = () => triggerJourney(fx, { phone: "+14155552671" });
    await Promise.all([event(), trigger(), event(), trigger(), event(), trigger(), event(), trigger()]);
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(1);
    expect((await runOf(db, going.id)).status).toBe("exited");
  });

  it("eight deliveries of one event at the same moment enter a stored contact once", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "send", steps: [sendStep("send", t, null)], entryEvents: ["signed_up"], reentry: { rule: "once", periodDays: null } }));
    await db.insert(contacts).values({ id: newId("ctc"), workspaceId: fx.workspaceId, phoneNumber: "+14155552679" });
    const events = await Promise.all(Array.from({ length: 8 }, () => ingestEvent(db, { workspaceId: fx.workspaceId, name: "signed_up", phone: "+14155552679", properties: {} })));
    expect(events.map((event) => event.runsStarted).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(await runsOfCampaign(db, fx.campaignId)).toHaveLength(1);
  });

  it("never touches another workspace's contact with the same phone", async () => {
    const fx = await createJourneyFixture(cartJourney);
    const run = (await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "A" })).body as { id: string };
    const stranger = await createTestAccount();
    const event = await ingestEvent(db, { workspaceId: stranger.workspaceId, name: "order_placed", phone: "+14155552671", properties: {} });
    expect(event).toMatchObject({ contactId: null, runsEnded: 0 });
    const byId = await ingestEvent(db, { workspaceId: stranger.workspaceId, name: "order_placed", contactId: (await runOf(db, run.id)).contactId, properties: {} });
    expect(byId).toMatchObject({ contactId: null, runsEnded: 0 });
    expect((await runOf(db, run.id)).status).not.toBe("exited");
  });
});
