// Each step kind through the runner: sends (and their failures), waits (compressed for test runs),
// waits for events both ways, branches, contact updates with their goal, and the end.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { campaigns, contactListMembers, contactLists, contacts, inboundMessages, journeyRuns, messages, templates } from "@/db/schema";
import type { JourneyInput } from "@/lib/campaigns/journey";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createJourneyFixture, historyOf, makeDue, runMessages, runOf, runUntilIdle, sendStep, triggerJourney, type JourneyFixture } from "@/lib/testing/journey-factories";
import { secondsUntilTimeOfDay } from "./steps/wait";
import { runDueRuns } from "./runner";

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

async function enter(fx: JourneyFixture, body: Record<string, unknown> = {}): Promise<string> {
  const outcome = await triggerJourney(fx, { phone: "+14155552671", first_name: "Jane", order: "ORD-1", ...body });
  return (outcome.body as { id: string }).id;
}

describe("send", () => {
  it("fails the run with a clear error when the template is not approved, and never retries it", async () => {
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    await db.update(templates).set({ status: "REJECTED" }).where(eq(templates.id, fx.templateId));
    const runId = await enter(fx);
    await runUntilIdle(db);
    const run = await runOf(db, runId);
    expect(run.status).toBe("failed");
    expect(run.exitReason).toMatch(/hello/);
    expect(await runMessages(db, runId)).toHaveLength(0);
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["failed"]);
  });

  it("fails when a variable has no value, and refuses another workspace's template", async () => {
    const other = await createTestAccount();
    const foreign = newId("tpl");
    await db.insert(templates).values({ id: foreign, workspaceId: other.workspaceId, name: "x", language: "en_US", category: "UTILITY", status: "APPROVED", parameterFormat: "POSITIONAL", components: [{ type: "BODY", text: "Hi" }] });
    const fx = await createJourneyFixture((t) => ({ firstStepId: "hello", steps: [sendStep("hello", t, null)] }));
    const missing = await triggerJourney(fx, { phone: "+14155552671" });
    await runUntilIdle(db);
    expect((await runOf(db, (missing.body as { id: string }).id)).exitReason).toMatch(/no value for the template variable/);

    const fx2 = await createJourneyFixture(() => ({ firstStepId: "hello", steps: [sendStep("hello", foreign, null)] }));
    const runId = await enter(fx2);
    await runUntilIdle(db);
    expect(await runOf(db, runId)).toMatchObject({ status: "failed" });
    expect((await runOf(db, runId)).exitReason).toMatch(/no longer exists/);
  });

  it("stores a skipped message for an opted-out contact and goes on", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "hello",
      steps: [sendStep("hello", t, "tag"), { id: "tag", type: "update_contact", set: [{ attribute: "tagged", value: true }], next: null }],
    }));
    const runId = await enter(fx);
    await db.update(campaigns).set({ respectOptOut: true }).where(eq(campaigns.id, fx.campaignId));
    await db.update(contacts).set({ optedOutAt: new Date(), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" }).where(eq(contacts.workspaceId, fx.workspaceId));
    await runUntilIdle(db);
    const [message] = await runMessages(db, runId);
    expect(message).toMatchObject({ status: "skipped", errorCode: "opted_out", journeyStepId: "hello" });
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["skipped", "updated"]);
    expect((await runOf(db, runId)).status).toBe("completed");
  });
});

describe("wait", () => {
  it("waits a duration divided by the run's time scale, then continues", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "wait",
      steps: [{ id: "wait", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "hello" }, sendStep("hello", t, null)],
    }));
    const runId = await enter(fx);
    await runUntilIdle(db);
    const waiting = await runOf(db, runId);
    expect(waiting).toMatchObject({ status: "waiting", stepId: "wait", waitToken: "timer" });
    expect(waiting.dueAt!.getTime() - Date.now()).toBeGreaterThan(3500_000);

    // A test run's hour lasts a second at time scale 3600.
    await db.update(journeyRuns).set({ timeScale: 3600, status: "active", stepId: "wait", dueAt: new Date(), waitToken: null }).where(eq(journeyRuns.id, runId));
    await runDueRuns(db);
    const scaled = await runOf(db, runId);
    expect(scaled.dueAt!.getTime() - Date.now()).toBeLessThan(1_500);
    await makeDue(db, runId);
    await runUntilIdle(db);
    expect((await runOf(db, runId)).status).toBe("completed");
    expect((await historyOf(db, runId)).map((h) => `${h.step}:${h.outcome}`)).toEqual(["wait:waited", "hello:sent"]);
  });

  it("continues at once on a past or missing date attribute, saying why", async () => {
    const fx = await createJourneyFixture(() => ({
      firstStepId: "due",
      steps: [{ id: "due", type: "wait", wait: { kind: "date_attribute", attribute: "due_date", offsetSeconds: 3600 }, next: null }],
    }));
    const past = await enter(fx, { due: "2020-01-01" });
    await runUntilIdle(db);
    expect((await runOf(db, past)).status).toBe("completed");
    expect((await historyOf(db, past))[0]!.detail).toMatch(/has passed/);

    const future = await triggerJourney(fx, { phone: "+14155552699", due: "2099-01-01" });
    await runUntilIdle(db);
    const run = await runOf(db, (future.body as { id: string }).id);
    expect(run.status).toBe("waiting");
    expect(run.dueAt!.toISOString()).toBe("2099-01-01T01:00:00.000Z");
  });

  it("finds the next time of day in a time zone", () => {
    const now = new Date("2026-03-10T10:30:00Z");
    expect(secondsUntilTimeOfDay(now, "12:00", "UTC")).toBe(5400);
    expect(secondsUntilTimeOfDay(now, "09:00", "UTC")).toBe(22.5 * 3600);
    // 10:30 UTC is 11:30 in Madrid (CET).
    expect(secondsUntilTimeOfDay(now, "12:00", "Europe/Madrid")).toBe(1800);
  });
});

describe("wait for an event", () => {
  const readJourney = (t: string): JourneyInput => ({
    firstStepId: "hello",
    steps: [
      sendStep("hello", t, "await"),
      { id: "await", type: "wait_for_event", event: { kind: "read" }, timeoutSeconds: 86400, next: "read", timeoutNext: "unread" },
      { id: "read", type: "update_contact", set: [{ attribute: "outcome", value: "read" }], next: null },
      { id: "unread", type: "update_contact", set: [{ attribute: "outcome", value: "unread" }], next: null },
    ],
  });
  const outcomeOf = async (runId: string) => {
    const run = await runOf(db, runId);
    const [contact] = await db.select().from(contacts).where(eq(contacts.id, run.contactId));
    return contact!.attributes.outcome;
  };

  it("continues at next when the message is read", async () => {
    const fx = await createJourneyFixture(readJourney);
    const runId = await enter(fx);
    await runUntilIdle(db);
    const run = await runOf(db, runId);
    expect(run).toMatchObject({ status: "waiting", stepId: "await", waitToken: `message:${run.lastMessageId}:read` });
    await db.update(messages).set({ status: "read", deliveredAt: new Date(), readAt: new Date() }).where(eq(messages.id, run.lastMessageId!));
    await runUntilIdle(db);
    expect(await outcomeOf(runId)).toBe("read");
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["sent", "event", "updated"]);
  });

  it("takes the timeout path when due first", async () => {
    const fx = await createJourneyFixture(readJourney);
    const runId = await enter(fx);
    await runUntilIdle(db);
    await makeDue(db, runId);
    await runUntilIdle(db);
    expect(await outcomeOf(runId)).toBe("unread");
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["sent", "timeout", "updated"]);
  });

  it("wakes on a button tap with the awaited payload and keeps the reply for branches", async () => {
    const fx = await createJourneyFixture((t) => ({
      firstStepId: "hello",
      steps: [
        sendStep("hello", t, "tap"),
        { id: "tap", type: "wait_for_event", event: { kind: "button", payload: "YES" }, timeoutSeconds: 3600, next: "which", timeoutNext: null },
        {
          id: "which",
          type: "branch",
          paths: [{ name: "Said yes", conditions: [{ subject: { kind: "button_payload" }, operator: "equals", value: "yes" }], next: "yes" }],
          elseNext: null,
        },
        { id: "yes", type: "update_contact", set: [{ attribute: "said", value: "yes" }], next: null },
      ],
    }));
    const runId = await enter(fx);
    await runUntilIdle(db);
    const run = await runOf(db, runId);
    expect(run.waitToken).toBe(`button:${run.contactId}:YES`);
    const tap = (payload: string) =>
      db.insert(inboundMessages).values({
        id: newId("inb"), workspaceId: fx.workspaceId, contactId: run.contactId, phoneNumber: run.phoneNumber, providerMessageId: newId("wamid"),
        kind: "button", text: payload, payload, receivedAt: new Date(), createdAt: new Date(Date.now() + 1000),
      });
    await tap("NO");
    await runUntilIdle(db);
    expect((await runOf(db, runId)).status).toBe("waiting");
    await tap("YES");
    await runUntilIdle(db);
    const done = await runOf(db, runId);
    expect(done.status).toBe("completed");
    expect(done.lastReply).toEqual({ text: "YES", payload: "YES" });
    expect((await historyOf(db, runId)).map((h) => h.outcome)).toEqual(["sent", "event", "path:0", "updated"]);
  });
});

describe("branch and update_contact", () => {
  it("branches on a trigger field and an attribute, updates attributes and lists of its own workspace, converts on an attribute goal", async () => {
    const other = await createTestAccount();
    const foreignList = newId("lst");
    await db.insert(contactLists).values({ id: foreignList, workspaceId: other.workspaceId, name: "Theirs" });
    const list = newId("lst");
    const fx = await createJourneyFixture(() => ({
      firstStepId: "big",
      goal: { kind: "attribute", attribute: "segment", value: "big" },
      steps: [
        {
          id: "big",
          type: "branch",
          paths: [
            { name: "Small", conditions: [{ subject: { kind: "trigger", field: "amount" }, operator: "less_than", value: 100 }], next: "small" },
            { name: "VIP", conditions: [{ subject: { kind: "attribute", attribute: "name" }, operator: "equals", value: " JANE " }], next: "tag" },
          ],
          elseNext: null,
        },
        { id: "small", type: "end" },
        { id: "tag", type: "update_contact", set: [{ attribute: "segment", value: "big" }, { attribute: "order_id", value: null }], addToListIds: [list, foreignList], next: "done" },
        { id: "done", type: "end" },
      ],
    }));
    await db.insert(contactLists).values({ id: list, workspaceId: fx.workspaceId, name: "Big spenders" });
    const small = await enter(fx, { amount: 20 });
    const big = await triggerJourney(fx, { phone: "+14155552672", first_name: "Jane", order: "ORD-2", amount: 500 });
    const bigId = (big.body as { id: string }).id;
    await runUntilIdle(db);
    expect((await historyOf(db, small)).map((h) => h.outcome)).toEqual(["path:0", "completed"]);
    expect((await historyOf(db, bigId)).map((h) => h.outcome)).toEqual(["path:1", "updated", "completed"]);
    const run = await runOf(db, bigId);
    expect(run.convertedAt).not.toBeNull();
    expect((await runOf(db, small)).convertedAt).toBeNull();
    const [contact] = await db.select().from(contacts).where(eq(contacts.id, run.contactId));
    expect(contact!.attributes).toMatchObject({ segment: "big" });
    expect(contact!.attributes.order_id).toBeUndefined();
    const memberships = await db.select().from(contactListMembers).where(eq(contactListMembers.contactId, run.contactId));
    expect(memberships.map((m) => m.listId)).toEqual([list]);
  });

  it("fails a run whose step is missing from its version rather than leaving it stuck", async () => {
    const fx = await createJourneyFixture(() => ({ firstStepId: "done", steps: [{ id: "done", type: "end" }] }));
    const runId = await enter(fx);
    await db.execute(sql`update journey_runs set step_id = 'gone' where id = ${runId}`);
    await runUntilIdle(db);
    expect(await runOf(db, runId)).toMatchObject({ status: "failed" });
  });
});
