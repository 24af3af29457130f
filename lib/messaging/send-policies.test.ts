import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns, contacts, messages } from "@/db/schema";
import type { SendPolicy } from "@/lib/campaigns/send-policy";
import { newId } from "@/lib/crypto/random";
import { getSenderRow } from "@/lib/senders/service";
import { countingDb } from "@/lib/testing/counting-db";
import { createTestCampaign, createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";
import { createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerCampaign, type AcceptedMessage } from "@/lib/trigger/service";
import { claimBulkMessages } from "./claims";
import { runDispatch, systemClock, type Clock } from "./dispatcher";
import type { Channel } from "@/lib/channels";
import { fakeChannels } from "@/lib/testing/fake-channels";

const LONDON = "+447911123456"; // Europe/London: UTC+0 in November
const NIGHT: SendPolicy = { quietHours: { start: "21:00", end: "08:00" }, frequencyCap: null };

const fixedClock = (iso: string): Clock => ({ now: () => new Date(iso).getTime(), sleep: systemClock.sleep });

function recordingProviders() {
  const sent: string[] = [];
  const provider: Pick<Channel, "send"> = {
    async send(message) {
      sent.push(message.id);
      return { providerMessageId: `wamid.TEST.${message.id}` };
    },
  };
  return { sent, channels: fakeChannels(provider.send) };
}

async function dispatchAt(workspaceId: string, iso: string) {
  const { sent, channels } = recordingProviders();
  await runDispatch({ db: await getDb(), clock: fixedClock(iso), channels }, { workspaceIds: [workspaceId], deadlineMs: 5_000 });
  return sent;
}

async function setPolicy(campaignId: string, policy: SendPolicy) {
  await (await getDb()).update(campaigns).set({ sendPolicy: policy }).where(eq(campaigns.id, campaignId));
}

async function trigger(fx: TriggerFixture, body: unknown) {
  const outcome = await triggerCampaign(await getDb(), {
    workspaceId: fx.workspaceId,
    apiKeyId: fx.apiKeyId,
    campaignId: fx.campaignId,
    request: new Request("http://localhost/api/campaigns/x/trigger", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    dryRun: false,
  });
  return outcome.body as AcceptedMessage | { data: AcceptedMessage[] };
}

describe("quiet hours", () => {
  it("hold a message claimed inside them until they end in the contact's zone, without counting an attempt", async () => {
    const workspaceId = (await createTriggerFixture()).workspaceId;
    const campaignId = await createTestCampaign(workspaceId);
    await setPolicy(campaignId, NIGHT);
    const id = await createTestMessage({ workspaceId, campaignId, phoneNumber: LONDON, nextAttemptAt: new Date("2026-11-26T02:00:00Z") });

    expect(await dispatchAt(workspaceId, "2026-11-26T03:00:00Z")).toEqual([]);
    expect(await getTestMessage(id)).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null, nextAttemptAt: new Date("2026-11-26T08:00:00Z") });
    expect(await dispatchAt(workspaceId, "2026-11-26T07:59:59Z")).toEqual([]);
    expect(await dispatchAt(workspaceId, "2026-11-26T08:00:00Z")).toEqual([id]);
    expect(await getTestMessage(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("send right up to their start, use the contact's timezone attribute, and never hold a test send", async () => {
    const workspaceId = (await createTriggerFixture()).workspaceId;
    const campaignId = await createTestCampaign(workspaceId);
    await setPolicy(campaignId, NIGHT);
    const before = await createTestMessage({ workspaceId, campaignId, phoneNumber: LONDON, nextAttemptAt: new Date("2026-11-25T20:00:00Z") });
    expect(await dispatchAt(workspaceId, "2026-11-25T20:59:59Z")).toEqual([before]);

    // 03:00 UTC is 08:30 in Kolkata: outside the quiet hours of a contact who lives there.
    const db = await getDb();
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId, phoneNumber: "+447911123457", attributes: { timezone: "Asia/Kolkata" } });
    const abroad = await createTestMessage({ workspaceId, campaignId, phoneNumber: "+447911123457", nextAttemptAt: new Date("2026-11-26T02:00:00Z") });
    await db.update(messages).set({ contactId }).where(eq(messages.id, abroad));
    const test = await createTestMessage({ workspaceId, campaignId, phoneNumber: LONDON, nextAttemptAt: new Date("2026-11-26T02:00:00Z") });
    await db.update(messages).set({ source: "test" }).where(eq(messages.id, test));
    expect((await dispatchAt(workspaceId, "2026-11-26T03:00:00Z")).sort()).toEqual([abroad, test].sort());
  });
});

describe("frequency cap", () => {
  it("skips a trigger message over the cap when it is accepted, counting earlier messages and the batch itself", async () => {
    const fx = await createTriggerFixture();
    await setPolicy(fx.campaignId, { quietHours: null, frequencyCap: { limit: 2, periodHours: 24, scope: "campaign" } });
    const first = (await trigger(fx, { phone: LONDON, order: "A-1" })) as AcceptedMessage;
    expect(first.status).toBe("queued");
    const batch = (await trigger(fx, [{ phone: LONDON, order: "A-2" }, { phone: LONDON, order: "A-3" }, { phone: "+447911123499", order: "A-4" }])) as { data: AcceptedMessage[] };
    expect(batch.data.map((m) => m.status)).toEqual(["queued", "skipped", "queued"]);
    expect(batch.data[1]!.error).toEqual({ code: "frequency_cap", reason: "Frequency cap: this contact already got 2 messages from this campaign in the last day." });
    expect(await getTestMessage(batch.data[1]!.id)).toMatchObject({ status: "skipped", errorCode: "frequency_cap" });

    // Older than the period: not counted.
    await (await getDb()).update(messages).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(messages.campaignId, fx.campaignId));
    expect(((await trigger(fx, { phone: LONDON, order: "A-5" })) as AcceptedMessage).status).toBe("queued");

    const { db: counting, statements } = await countingDb();
    await triggerCampaign(counting, {
      workspaceId: fx.workspaceId,
      apiKeyId: fx.apiKeyId,
      campaignId: fx.campaignId,
      request: new Request("http://localhost/t", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone: LONDON, order: "A-6" }) }),
      dryRun: false,
    });
    // The context, then in one transaction the contact's lock, the count and the store (begin and commit are the driver's).
    expect(statements).toHaveLength(4);
    expect(statements[1]).toContain("pg_advisory_xact_lock");
  });

  // Two deliveries of one webhook at once, each one message to the same contact: on Postgres both
  // counted before the other stored its message, and both were queued.
  it("holds for requests for one contact at the same moment, a new contact or a stored one", async () => {
    const fx = await createTriggerFixture();
    await setPolicy(fx.campaignId, { quietHours: null, frequencyCap: { limit: 1, periodHours: 24, scope: "workspace" } });
    await (await getDb()).insert(contacts).values({ id: newId("ctc"), workspaceId: fx.workspaceId, phoneNumber: "+447911123458" });
    for (const phone of [LONDON, "+447911123458"]) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => trigger(fx, { phone, order: `C-${i}` })));
      expect(answers.map((answer) => (answer as AcceptedMessage).status).sort()).toEqual(["queued", ...Array(7).fill("skipped")]);
    }
  });

  it("with the workspace scope, counts the contact's messages from every campaign", async () => {
    const fx = await createTriggerFixture();
    await setPolicy(fx.campaignId, { quietHours: null, frequencyCap: { limit: 1, periodHours: 168, scope: "workspace" } });
    expect(((await trigger(fx, { phone: LONDON, order: "A-1" })) as AcceptedMessage).status).toBe("queued");
    const db = await getDb();
    const [contact] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, fx.workspaceId), eq(contacts.phoneNumber, LONDON)));
    // The same contact on another campaign of the workspace, with no cap of its own.
    const other = await createTestCampaign(fx.workspaceId);
    await db.update(messages).set({ campaignId: other }).where(eq(messages.contactId, contact!.id));
    expect(((await trigger(fx, { phone: LONDON, order: "A-2" })) as AcceptedMessage).status).toBe("skipped");
  });

  it("skips a bulk message at send time when the contact is already over a workspace cap", async () => {
    const fx = await createTriggerFixture();
    const db = await getDb();
    const sender = await getSenderRow(db, fx.workspaceId);
    const bulk = await createTestCampaign(fx.workspaceId);
    await db.update(campaigns).set({ kind: "bulk", status: "sending", launchedAt: new Date() }).where(eq(campaigns.id, bulk));
    await setPolicy(bulk, { quietHours: null, frequencyCap: { limit: 1, periodHours: 24, scope: "workspace" } });
    const reached = newId("ctc");
    const fresh = newId("ctc");
    await db.insert(contacts).values([
      { id: reached, workspaceId: fx.workspaceId, phoneNumber: LONDON },
      { id: fresh, workspaceId: fx.workspaceId, phoneNumber: "+447911123458" },
    ]);
    // The first contact got an order update an hour ago.
    const earlier = await createTestMessage({ workspaceId: fx.workspaceId, campaignId: fx.campaignId, phoneNumber: LONDON, status: "sent", sentAt: new Date(Date.now() - 3600_000) });
    await db.update(messages).set({ contactId: reached }).where(eq(messages.id, earlier));
    const queued = [
      { contactId: reached, phone: LONDON },
      { contactId: fresh, phone: "+447911123458" },
    ].map(({ contactId, phone }) => ({
      id: newId("msg"),
      workspaceId: fx.workspaceId,
      campaignId: bulk,
      contactId,
      senderId: sender.id,
      phoneNumber: phone,
      templateName: "order_shipped",
      templateLanguage: "en_US",
      renderedText: "Spring picks",
      payload: { template: { name: "order_shipped", language: { code: "en_US" }, components: [] } },
      source: "bulk" as const,
    }));
    await db.insert(messages).values(queued);
    const { sent, channels } = recordingProviders();
    // The pass ends once its lanes are empty; the deadline only bounds a pass that a loaded machine slows down.
    await runDispatch({ db, channels }, { workspaceIds: [fx.workspaceId], deadlineMs: 15_000 });
    expect(sent).toEqual([queued[1]!.id]);
    expect(await getTestMessage(queued[0]!.id)).toMatchObject({ status: "skipped", errorCode: "frequency_cap", attempts: 0 });
  });

  it("lets one of two bulk campaigns claimed at the same moment reach a contact under a workspace cap of one", async () => {
    const fx = await createTriggerFixture();
    const db = await getDb();
    const sender = await getSenderRow(db, fx.workspaceId);
    const phones = Array.from({ length: 8 }, (_, i) => `+44791112350${i}`);
    const people = phones.map((phone) => ({ id: newId("ctc"), workspaceId: fx.workspaceId, phoneNumber: phone }));
    await db.insert(contacts).values(people);
    const bulks = [await createTestCampaign(fx.workspaceId), await createTestCampaign(fx.workspaceId)];
    for (const bulk of bulks) {
      await db.update(campaigns).set({ kind: "bulk", status: "sending", launchedAt: new Date() }).where(eq(campaigns.id, bulk));
      await setPolicy(bulk, { quietHours: null, frequencyCap: { limit: 1, periodHours: 24, scope: "workspace" } });
      await db.insert(messages).values(people.map((person) => bulkMessage({ workspaceId: fx.workspaceId, campaignId: bulk, senderId: sender.id, contactId: person.id, phone: person.phoneNumber })));
    }

    const now = new Date();
    const lease = new Date(now.getTime() + 60_000);
    const claims = await Promise.all(bulks.map((campaignId) => claimBulkMessages(db, { campaignId, now, lease, count: phones.length })));

    const passed = claims.flat().map((m) => m.phoneNumber).sort();
    expect(passed).toEqual([...phones].sort());
    const rows = await db.select({ phone: messages.phoneNumber, status: messages.status, errorCode: messages.errorCode }).from(messages).where(inArray(messages.campaignId, bulks));
    for (const phone of phones) {
      const own = rows.filter((row) => row.phone === phone);
      expect(own.map((row) => row.status).sort()).toEqual(["sending", "skipped"]);
      expect(own.find((row) => row.status === "skipped")?.errorCode).toBe("frequency_cap");
    }
  });

  it("counts a trigger message accepted and still waiting to be sent against a bulk message to the same contact", async () => {
    const fx = await createTriggerFixture();
    const db = await getDb();
    const sender = await getSenderRow(db, fx.workspaceId);
    expect(((await trigger(fx, { phone: LONDON, order: "Q-1" })) as AcceptedMessage).status).toBe("queued");
    const [contact] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, fx.workspaceId), eq(contacts.phoneNumber, LONDON)));
    const bulk = await createTestCampaign(fx.workspaceId);
    await db.update(campaigns).set({ kind: "bulk", status: "sending", launchedAt: new Date() }).where(eq(campaigns.id, bulk));
    await setPolicy(bulk, { quietHours: null, frequencyCap: { limit: 1, periodHours: 24, scope: "workspace" } });
    const queued = bulkMessage({ workspaceId: fx.workspaceId, campaignId: bulk, senderId: sender.id, contactId: contact!.id, phone: LONDON });
    await db.insert(messages).values(queued);

    const now = new Date();
    expect(await claimBulkMessages(db, { campaignId: bulk, now, lease: new Date(now.getTime() + 60_000), count: 10 })).toEqual([]);
    expect(await getTestMessage(queued.id)).toMatchObject({ status: "skipped", errorCode: "frequency_cap" });
  });
});

/**
 * A bulk message due a second ago. Stored due at the database's `now()` (microseconds), it would not be
 * due yet for a claim whose clock (milliseconds) reads the same millisecond: the claim would leave it queued.
 */
function bulkMessage(input: { workspaceId: string; campaignId: string; senderId: string; contactId: string; phone: string }) {
  return {
    nextAttemptAt: new Date(Date.now() - 1_000),
    id: newId("msg"),
    workspaceId: input.workspaceId,
    campaignId: input.campaignId,
    contactId: input.contactId,
    senderId: input.senderId,
    phoneNumber: input.phone,
    templateName: "order_shipped",
    templateLanguage: "en_US",
    renderedText: "Spring picks",
    payload: { template: { name: "order_shipped", language: { code: "en_US" }, components: [] } },
    source: "bulk" as const,
  };
}
