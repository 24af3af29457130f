import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getBulkProgress } from "@/lib/bulk/progress";
import { listCampaigns } from "@/lib/campaigns/service";
import { parsePhone } from "@/lib/contacts/phone";
import { countLogStatuses } from "@/lib/logs/query";
import { createTestAccount } from "@/lib/testing/factories";
import { DEMO_BULK_CAMPAIGN, DEMO_CONTACT_COUNT, DEMO_LIST_NAME, DEMO_TRIGGER_CAMPAIGN, demoConsentOf, seedDemoWorkspace } from "./demo-workspace";
import { getDb } from "./index";
import { auditEvents, campaigns, contactListMembers, contactLists, contacts, inboundMessages, memberships, messages, segments, triggerRequests, users } from "./schema";
import { DEMO_USER, seedDemoData, seedsOnStart } from "./seed";

describe("seedsOnStart", () => {
  it("seeds the embedded database under next dev only", () => {
    expect(seedsOnStart({ NODE_ENV: "development" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "production" })).toBe(false);
    expect(seedsOnStart({ NODE_ENV: "test" })).toBe(false);
    expect(seedsOnStart({})).toBe(false);
    expect(seedsOnStart({ NODE_ENV: "development", DATABASE_URL: "postgres://db/app" })).toBe(false);
  });

  it("follows an explicit SENDSTREAM_SEED either way", () => {
    expect(seedsOnStart({ NODE_ENV: "production", SENDSTREAM_SEED: "true" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", SENDSTREAM_SEED: "true" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "development", SENDSTREAM_SEED: "false" })).toBe(false);
  });
});

describe("seedDemoData", () => {
  it("fills the demo workspace once, with numbers that agree on every page", async () => {
    const db = await getDb();
    const started = performance.now();
    const first = await seedDemoData(db);
    const elapsed = performance.now() - started;
    console.log(`demo seed: ${Math.round(elapsed)} ms`);
    expect(first).toEqual({ created: true, seeded: true });
    const [owner] = await db.select({ userId: users.id, workspaceId: memberships.workspaceId }).from(users).innerJoin(memberships, eq(memberships.userId, users.id)).where(eq(users.email, DEMO_USER.email));
    const workspaceId = owner!.workspaceId;

    // Contacts: valid E.164 numbers from fictional ranges, varied places, consent mostly given.
    const people = await db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId));
    expect(people).toHaveLength(DEMO_CONTACT_COUNT);
    for (const person of people) {
      expect(parsePhone(person.phoneNumber)).toEqual({ ok: true, phone: person.phoneNumber });
      expect(person.phoneNumber).toMatch(/^\+1\d{3}55501\d\d$|^\+6149157\d{4}$/);
      expect(person.attributes).toMatchObject({ first_name: expect.any(String), city: expect.any(String), country: expect.any(String), plan: expect.any(String) });
    }
    expect(new Set(people.map((p) => p.attributes.city)).size).toBeGreaterThanOrEqual(8);
    const consent = Array.from({ length: DEMO_CONTACT_COUNT }, (_, index) => demoConsentOf(index));
    const unsubscribedAtImport = consent.filter((c) => c === "unsubscribed").length;
    expect(consent.filter((c) => c === "subscribed").length).toBeGreaterThan(DEMO_CONTACT_COUNT * 0.7);
    expect(consent.filter((c) => c === "unknown").length).toBeGreaterThan(5);
    // One more opted out by replying STOP to the bulk campaign.
    expect(people.filter((p) => p.optedOutAt !== null)).toHaveLength(unsubscribedAtImport + 1);
    const stored = (status: string) => people.filter((p) => p.consentStatus === status);
    expect(stored("unsubscribed")).toHaveLength(unsubscribedAtImport + 1);
    expect(stored("unknown")).toHaveLength(consent.filter((c) => c === "unknown").length);
    expect(stored("subscribed").every((p) => p.consentSource === "import" && p.consentAt !== null)).toBe(true);

    const [list] = await db.select().from(contactLists).where(eq(contactLists.workspaceId, workspaceId));
    expect(list!.name).toBe(DEMO_LIST_NAME);
    expect(await db.select().from(segments).where(eq(segments.workspaceId, workspaceId))).toHaveLength(1);

    const { data: all } = await listCampaigns(db, workspaceId, {});
    const bulk = all.find((c) => c.name === DEMO_BULK_CAMPAIGN)!;
    const trigger = all.find((c) => c.name === DEMO_TRIGGER_CAMPAIGN)!;
    expect(bulk).toMatchObject({ kind: "bulk", status: "completed" });
    expect(trigger).toMatchObject({ kind: "trigger", status: "active" });

    // The funnel: settled (nothing queued), sent ≥ delivered ≥ read, some failed, the same on the
    // campaigns list, the campaign page and the logs.
    for (const campaign of [bulk, trigger]) {
      const stats = campaign.stats;
      expect(stats.queued).toBe(0);
      expect(stats.sent).toBeGreaterThan(0);
      expect(stats.sent).toBeGreaterThanOrEqual(stats.delivered);
      expect(stats.delivered).toBeGreaterThanOrEqual(stats.read);
      expect(stats.read).toBeGreaterThan(0);
      expect(stats.delivered).toBeGreaterThan(stats.read);
      expect(stats.sent).toBeGreaterThan(stats.delivered);
      const logs = await countLogStatuses(db, { workspaceId, campaignId: campaign.id }, {});
      expect(logs).toMatchObject({ sent: stats.sent, delivered: stats.delivered, read: stats.read, failed: stats.failed, queued: 0, skipped: stats.skipped });
    }
    expect(bulk.stats.failed + trigger.stats.failed).toBeGreaterThan(0);
    const progress = await getBulkProgress(db, workspaceId, bulk.id);
    expect(progress.funnel).toMatchObject({ sent: bulk.stats.sent, delivered: bulk.stats.delivered, read: bulk.stats.read, failed: bulk.stats.failed });
    const listMembers = await db.select({ optedOutAt: contacts.optedOutAt }).from(contactListMembers).innerJoin(contacts, eq(contacts.id, contactListMembers.contactId)).where(eq(contactListMembers.listId, list!.id));
    // Everyone on the list who had not opted out at launch got the message (one opted out later by replying).
    expect(bulk.stats.sent + bulk.stats.failed).toBe(listMembers.filter((m) => m.optedOutAt === null).length + 1);
    const failed = await db.select().from(messages).where(and(eq(messages.workspaceId, workspaceId), eq(messages.status, "failed")));
    for (const message of failed) expect(message.errorReason).toBeTruthy();

    // Replies, linked to the messages they answer and to their campaign.
    const replies = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspaceId));
    expect(replies.filter((r) => r.campaignId === bulk.id).length).toBeGreaterThanOrEqual(10);
    expect(replies.filter((r) => r.campaignId === trigger.id).length).toBeGreaterThan(0);
    expect(replies.every((r) => r.replyToMessageId !== null && r.contactId !== null)).toBe(true);
    expect(replies.some((r) => r.kind === "button" && r.text === "Confirm")).toBe(true);
    expect(replies.every((r) => r.createdAt.getTime() === r.receivedAt.getTime() && r.receivedAt.getTime() < Date.now())).toBe(true);

    // A day of trigger requests: accepted ones each sent a message, a few refused.
    const requests = await db.select().from(triggerRequests).where(eq(triggerRequests.campaignId, trigger.id));
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000 - 60_000;
    expect(requests.every((r) => r.createdAt.getTime() >= dayAgo && r.createdAt.getTime() <= Date.now())).toBe(true);
    expect(requests.filter((r) => r.status === 202).length).toBe(trigger.stats.total);
    expect(requests.filter((r) => r.status === 422).length).toBeGreaterThan(0);

    // Once: a second run (the next start) changes nothing.
    const counts = async () =>
      Promise.all([contacts, messages, inboundMessages, triggerRequests, campaigns, auditEvents].map(async (table) => (await db.select({ n: count() }).from(table))[0]!.n));
    const before = await counts();
    expect(await seedDemoData(db)).toEqual({ created: false, seeded: false });
    expect(await counts()).toEqual(before);
  });

  it("leaves a demo workspace that has content alone, and fills an empty one", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    await db.insert(contacts).values({ id: "ctc_mine", workspaceId: account.workspaceId, phoneNumber: "+15125550100" });
    expect(await seedDemoWorkspace(db, { workspaceId: account.workspaceId, userId: account.id })).toEqual({ seeded: false });
    expect(await db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, account.workspaceId))).toEqual([{ n: 1 }]);
    const other = await createTestAccount();
    const started = performance.now();
    expect(await seedDemoWorkspace(db, { workspaceId: other.workspaceId, userId: other.id })).toEqual({ seeded: true });
    const elapsed = performance.now() - started;
    console.log(`demo workspace seed: ${Math.round(elapsed)} ms`);
    // Part of a first start: well under two seconds on the embedded database.
    if (!process.env.DATABASE_URL) expect(elapsed).toBeLessThan(2000);
  });
});
