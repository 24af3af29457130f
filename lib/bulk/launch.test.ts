import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, campaigns, contacts, messages, senders, templates } from "@/db/schema";
import { archiveCampaign, deployCampaign, pauseCampaign, resumeCampaign } from "@/lib/campaigns/lifecycle";
import { parseStoredMessageConfig } from "@/lib/campaigns/schemas";
import { createCampaign, getCampaign, listCampaigns, updateCampaign } from "@/lib/campaigns/service";
import { ApiError } from "@/lib/http/errors";
import { composeMessage, contactAttributes } from "@/lib/outbox/compose";
import { claimBulkMessages } from "@/lib/messaging/claims";
import { updateSenderSettings } from "@/lib/senders/service";
import { getTemplateRow } from "@/lib/templates/service";
import { queryRows } from "@/db/rows";
import { renderingSql } from "./render-sql";
import { countBulkAudience } from "./audience";
import { runBulkHousekeeping } from "./housekeeping";
import { getLaunchCheck, launchBulkCampaign, scheduleBulkCampaign, zonedDateTimeToUtc } from "./launch";
import { cancelBulkCampaign } from "./lifecycle";
import { getBulkProgress } from "./progress";
import { LEFT_OUT_REASON, renderClaimedBulkMessages } from "./send-render";
import { bulkMessages, bulkStatusCounts, createBulkFixture, PROMO_MESSAGE_CONFIG, testPhone } from "./test-fixtures";
import { HELD_UNTIL } from "./tier";

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

async function auditActions(campaignId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.targetId, campaignId)).orderBy(auditEvents.createdAt);
  return rows.map((r) => r.action);
}

describe("bulk launch: the snapshot", () => {
  it("stores bare rows, rendered when claimed exactly as the trigger renders and as the SQL rendering did (text and payload)", async () => {
    const fixture = await createBulkFixture({
      contacts: 5,
      attributes: (i) =>
        [
          { code: "A B/ç?&", city: "  Lisbon\n\ncentre  " },
          { code: "X1", city: "a     b\tc" },
          { code: "Z9", city: "" },
          { code: 42, city: true },
          { code: "Q 7", city: { nested: true } },
        ][i]!,
    });
    const db = await getDb();
    // No name: the header and body fall back ("friend", "there").
    await db.update(contacts).set({ name: null }).where(eq(contacts.id, fixture.contactIds[4]!));
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const template = (await getTemplateRow(db, fixture.workspaceId, fixture.templateId))!;
    const bare = await bulkMessages(fixture.campaignId);
    expect(bare).toHaveLength(5);
    for (const message of bare) expect(message).toMatchObject({ status: "queued", source: "bulk", renderedText: "", payload: {} });

    // What the snapshot stored before rendering moved to the claim: the same template rendered in SQL.
    const rendering = renderingSql(template, PROMO_CONFIG());
    const inSql = await queryRows<{ id: string; text: string; payload: Record<string, unknown> }>(
      db,
      sql`select c.id, ${rendering.text} as text, ${rendering.payload} as payload from contacts c ${rendering.joins} where c.workspace_id = ${fixture.workspaceId}`,
    );
    const claimed = await claimBulkMessages(db, { campaignId: fixture.campaignId, now: new Date(), lease: new Date(Date.now() + 60_000), count: 10, render: renderClaimedBulkMessages });
    expect(claimed).toHaveLength(5);
    const stored = await bulkMessages(fixture.campaignId);
    const contactRows = await db.select().from(contacts).where(eq(contacts.workspaceId, fixture.workspaceId));
    for (const message of stored) {
      const contact = contactRows.find((c) => c.id === message.contactId)!;
      const composed = composeMessage(template, PROMO_CONFIG(), contactAttributes(contact.phoneNumber, contact, {}));
      expect(composed.ok).toBe(true);
      if (!composed.ok) continue;
      expect(message.renderedText).toBe(composed.text);
      expect(message.payload).toEqual({ template: composed.template });
      const old = inSql.find((r) => r.id === contact.id)!;
      expect(message.renderedText).toBe(old.text);
      expect(message.payload).toEqual(typeof old.payload === "string" ? JSON.parse(old.payload) : old.payload);
      expect(claimed.find((m) => m.id === message.id)?.payload).toEqual(message.payload);
      expect(message).toMatchObject({ status: "sending", source: "bulk", phoneNumber: contact.phoneNumber, templateName: "promo", templateLanguage: "en_US" });
    }
    const first = stored.find((m) => m.contactId === fixture.contactIds[0])!;
    expect(JSON.stringify(first.payload)).toContain("A%20B%2F%C3%A7%3F%26");
    const unnamed = stored.find((m) => m.contactId === fixture.contactIds[4])!;
    expect(unnamed.renderedText).toBe("Hello friend\nHi there, use code Q 7 in your store.\nReply STOP to opt out");
  });

  it("a claimed row whose contact lost a required value is skipped; one whose template is gone fails", async () => {
    const fixture = await createBulkFixture({ contacts: 2 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    // body.2 (code) has no fallback: the contact's code removed after the launch.
    await db.update(contacts).set({ attributes: { city: "Porto" } }).where(eq(contacts.id, fixture.contactIds[0]!));
    const claimed = await claimBulkMessages(db, { campaignId: fixture.campaignId, now: new Date(), lease: new Date(Date.now() + 60_000), count: 10, render: renderClaimedBulkMessages });
    expect(claimed.map((m) => m.contactId)).toEqual([fixture.contactIds[1]]);
    const rows = await bulkMessages(fixture.campaignId);
    expect(rows.find((m) => m.contactId === fixture.contactIds[0])).toMatchObject({ status: "skipped", errorCode: "variables_missing", lockedUntil: null });

    const other = await createBulkFixture({ contacts: 1 });
    await launchBulkCampaign(db, other.workspaceId, other.campaignId);
    await db.delete(templates).where(eq(templates.id, other.templateId));
    expect(await claimBulkMessages(db, { campaignId: other.campaignId, now: new Date(), lease: new Date(Date.now() + 60_000), count: 10, render: renderClaimedBulkMessages })).toEqual([]);
    expect((await bulkMessages(other.campaignId))[0]).toMatchObject({ status: "failed", errorCode: "template_missing" });
  });

  it("a contact who opted out after the launch is skipped when their message is claimed (opted_out, with how and when), never sent", async () => {
    const fixture = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    await db
      .update(contacts)
      .set({ optedOutAt: new Date("2026-11-20T10:00:00Z"), optOutMethod: "keyword", optOutDetail: "STOP", consentStatus: "unsubscribed" })
      .where(eq(contacts.id, fixture.contactIds[1]!));
    const claimed = await claimBulkMessages(db, { campaignId: fixture.campaignId, now: new Date(), lease: new Date(Date.now() + 60_000), count: 10, render: renderClaimedBulkMessages });
    expect(claimed.map((m) => m.contactId).sort()).toEqual([fixture.contactIds[0], fixture.contactIds[2]].sort());
    const rows = await bulkMessages(fixture.campaignId);
    expect(rows.find((m) => m.contactId === fixture.contactIds[1])).toMatchObject({
      status: "skipped",
      errorCode: "opted_out",
      errorReason: "Contact opted out (replied STOP on 2026-11-20)",
      lockedUntil: null,
    });
  });

  it("leaves opted-out contacts out, and the live count says how many", async () => {
    const fixture = await createBulkFixture({ contacts: 6, optedOut: 3 });
    const db = await getDb();
    expect(await countBulkAudience(db, fixture.workspaceId, { listIds: [fixture.listId], segmentIds: [] })).toEqual({ count: 6, optedOutExcluded: 3, consent: { subscribed: 6, unknown: 0 } });
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored.map((m) => m.contactId).sort()).toEqual([...fixture.contactIds].sort());
    for (const id of fixture.optedOutIds) expect(stored.some((m) => m.contactId === id)).toBe(false);
  });

  it("launching twice changes nothing the second time", async () => {
    const fixture = await createBulkFixture({ contacts: 7 });
    const db = await getDb();
    const first = await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(first.status).toBe("sending");
    const again = await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(again).toEqual(first);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 7 });
    expect((await auditActions(fixture.campaignId)).filter((a) => a === "campaign.launched")).toHaveLength(1);
  });

  it("two launches at once make one snapshot", async () => {
    const fixture = await createBulkFixture({ contacts: 25 });
    const db = await getDb();
    const results = await Promise.allSettled([
      launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId),
      launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId),
      launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId),
    ]);
    for (const result of results) expect(result.status).toBe("fulfilled");
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 25 });
    expect((await auditActions(fixture.campaignId)).filter((a) => a === "campaign.launched")).toHaveLength(1);
  });

  it("a launch that dies after the snapshot leaves nothing; the retry snapshots everyone once", async () => {
    const fixture = await createBulkFixture({ contacts: 9 });
    const db = await getDb();
    let insertedBeforeCrash = 0;
    await expect(
      launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, {
        afterSnapshot: (inserted) => {
          insertedBeforeCrash = inserted;
          throw new Error("process died");
        },
      }),
    ).rejects.toThrow("process died");
    expect(insertedBeforeCrash).toBe(9);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({});
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("draft");
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 9 });
  });

  it("a snapshot re-run over existing rows adds only the missing contacts (ON CONFLICT DO NOTHING)", async () => {
    const fixture = await createBulkFixture({ contacts: 5 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const before = await bulkMessages(fixture.campaignId);
    // Simulate a resumed launch: back to draft with its rows kept, then launched again.
    await db.update(campaigns).set({ status: "draft", launchedAt: null }).where(eq(campaigns.id, fixture.campaignId));
    await db.delete(messages).where(eq(messages.id, before[0]!.id));
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const after = await bulkMessages(fixture.campaignId);
    expect(after).toHaveLength(5);
    expect(after.filter((m) => before.some((b) => b.id === m.id))).toHaveLength(4);
  });

  it("contacts with an empty variable are skipped, or left out when the audience says so", async () => {
    const fixture = await createBulkFixture({ contacts: 4, attributes: (i) => (i < 1 ? { city: "Lisbon" } : { code: `C${i}` }) });
    const db = await getDb();
    const check = await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId);
    expect(check).toMatchObject({ ready: true, audienceCount: 4, skippedForEmptyVariables: 1, sendableNow: 3, exceedsTier: false });
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored.filter((m) => m.status === "skipped").map((m) => [m.contactId, m.errorCode])).toEqual([[fixture.contactIds[0], "variables_missing"]]);

    const other = await createBulkFixture({ contacts: 4, attributes: (i) => (i < 2 ? {} : { code: `C${i}` }) });
    await updateCampaign(db, other.workspaceId, other.campaignId, { audience: { listIds: [other.listId], segmentIds: [], excludeContactsWithEmptyVariables: true } });
    // One count everywhere: the builder's, the launch check's and the campaign's; the contacts left out are skipped with why.
    expect((await countBulkAudience(db, other.workspaceId, { listIds: [other.listId], segmentIds: [] })).count).toBe(4);
    expect(await getLaunchCheck(db, other.workspaceId, other.campaignId)).toMatchObject({ audienceCount: 4, skippedForEmptyVariables: 2, sendableNow: 2 });
    await launchBulkCampaign(db, other.workspaceId, other.campaignId);
    expect(await bulkStatusCounts(other.campaignId)).toEqual({ queued: 2, skipped: 2 });
    const leftOut = (await bulkMessages(other.campaignId)).filter((m) => m.status === "skipped");
    expect(leftOut.map((m) => [m.contactId, m.errorCode, m.errorReason]).sort()).toEqual(
      [other.contactIds[0], other.contactIds[1]].sort().map((id) => [id, "variables_missing", LEFT_OUT_REASON]),
    );
    const progress = await getBulkProgress(db, other.workspaceId, other.campaignId);
    expect(progress.total).toBe(4);
    expect(progress.funnel.skipped).toBe(2);
  });

  it("refuses to launch with every failing check listed: empty audience, unapproved template", async () => {
    const fixture = await createBulkFixture({ contacts: 0, optedOut: 2 });
    const db = await getDb();
    await db.update(templates).set({ status: "PAUSED" }).where(eq(templates.id, fixture.templateId));
    const error = await failure(launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId));
    expect(error).toMatchObject({ status: 422, code: "launch_checks_failed" });
    expect(error.errors?.map((e) => e.code).sort()).toEqual(["audience_empty", "template_not_approved"]);
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("draft");
  });
});

function PROMO_CONFIG() {
  return parseStoredMessageConfig({
    variables: [
      { key: "header.1", attribute: "name", fallback: "friend" },
      { key: "body.1", attribute: "name", fallback: "there" },
      { key: "body.2", attribute: "code", fallback: null },
      { key: "body.3", attribute: "city", fallback: "your store" },
      { key: "button.0.1", attribute: "code", fallback: "WELCOME" },
    ],
  });
}

describe("bulk lifecycle", () => {
  it("allows draft → sending ⇄ paused → cancelled → archived, with an audit row for each", async () => {
    const fixture = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    const { workspaceId, campaignId } = fixture;
    expect((await launchBulkCampaign(db, workspaceId, campaignId)).status).toBe("sending");
    expect((await pauseCampaign(db, workspaceId, campaignId)).status).toBe("paused");
    expect((await resumeCampaign(db, workspaceId, campaignId)).status).toBe("sending");
    expect((await pauseCampaign(db, workspaceId, campaignId)).status).toBe("paused");
    expect((await cancelBulkCampaign(db, workspaceId, campaignId)).status).toBe("cancelled");
    expect((await archiveCampaign(db, workspaceId, campaignId)).status).toBe("archived");
    expect(await auditActions(campaignId)).toEqual([
      "campaign.launched",
      "campaign.paused",
      "campaign.resumed",
      "campaign.paused",
      "campaign.cancelled",
      "campaign.archived",
    ]);
  });

  it("refuses transitions that do not apply with 409 invalid_status_transition", async () => {
    const fixture = await createBulkFixture({ contacts: 2 });
    const db = await getDb();
    const { workspaceId, campaignId } = fixture;
    const refused = async (promise: Promise<unknown>) => expect((await failure(promise)).code).toBe("invalid_status_transition");
    await refused(pauseCampaign(db, workspaceId, campaignId));
    await refused(resumeCampaign(db, workspaceId, campaignId));
    await refused(cancelBulkCampaign(db, workspaceId, campaignId));
    await refused(deployCampaign(db, workspaceId, campaignId));
    await launchBulkCampaign(db, workspaceId, campaignId);
    await refused(archiveCampaign(db, workspaceId, campaignId));
    await refused(scheduleBulkCampaign(db, workspaceId, campaignId, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString(), timeZone: "UTC" }));
    expect((await failure(updateCampaign(db, workspaceId, campaignId, { name: "Changed" }))).code).toBe("campaign_not_editable");
    await cancelBulkCampaign(db, workspaceId, campaignId);
    await refused(launchBulkCampaign(db, workspaceId, campaignId));
    await refused(pauseCampaign(db, workspaceId, campaignId));
    await refused(resumeCampaign(db, workspaceId, campaignId));
  });

  it("edits only in draft and scheduled; a send rate above the sender's throughput is refused", async () => {
    const fixture = await createBulkFixture({ contacts: 2 });
    const db = await getDb();
    const { workspaceId, campaignId } = fixture;
    expect((await updateCampaign(db, workspaceId, campaignId, { sendRatePerSecond: 20 })).bulk?.sendRatePerSecond).toBe(20);
    expect((await failure(updateCampaign(db, workspaceId, campaignId, { sendRatePerSecond: 500 }))).errors?.[0]).toMatchObject({ path: "sendRatePerSecond" });
    expect((await failure(updateCampaign(db, workspaceId, campaignId, { triggerConfig: { phoneField: "phone", fields: [] } }))).errors?.[0]).toMatchObject({
      path: "triggerConfig",
    });
    const inAMonth = new Date(Date.now() + 30 * 24 * 3_600_000).toISOString().slice(0, 16);
    await scheduleBulkCampaign(db, workspaceId, campaignId, { scheduledAt: inAMonth, timeZone: "Europe/Lisbon" });
    expect((await updateCampaign(db, workspaceId, campaignId, { name: "Rescheduled promo" })).status).toBe("scheduled");
  });

  it("cancel marks every queued message skipped (cancelled) and leaves sent ones alone", async () => {
    const fixture = await createBulkFixture({ contacts: 6 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const [first, second] = await bulkMessages(fixture.campaignId);
    await db.update(messages).set({ status: "sent", sentAt: new Date() }).where(eq(messages.id, first!.id));
    await db.update(messages).set({ status: "delivered", sentAt: new Date(), deliveredAt: new Date() }).where(eq(messages.id, second!.id));
    await cancelBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ sent: 1, delivered: 1, skipped: 4 });
    const skipped = (await bulkMessages(fixture.campaignId)).filter((m) => m.status === "skipped");
    expect(new Set(skipped.map((m) => m.errorCode))).toEqual(new Set(["cancelled"]));
  });

  it("completes only when no message is queued or sending (housekeeping)", async () => {
    const fixture = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    await runBulkHousekeeping(db, new Date());
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("sending");
    await db.update(messages).set({ status: "read", sentAt: new Date() }).where(eq(messages.id, stored[0]!.id));
    await db.update(messages).set({ status: "sending" }).where(eq(messages.id, stored[1]!.id));
    await db.update(messages).set({ status: "failed", failedAt: new Date() }).where(eq(messages.id, stored[2]!.id));
    await runBulkHousekeeping(db, new Date());
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("sending");
    await db.update(messages).set({ status: "sent", sentAt: new Date() }).where(eq(messages.id, stored[1]!.id));
    await pauseCampaign(db, fixture.workspaceId, fixture.campaignId);
    await runBulkHousekeeping(db, new Date());
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("paused");
    await resumeCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(await runBulkHousekeeping(db, new Date())).toBeGreaterThanOrEqual(1);
    const done = await getCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(done.status).toBe("completed");
    expect(done.bulk?.completedAt).not.toBeNull();
    expect((await auditActions(fixture.campaignId)).at(-1)).toBe("campaign.completed");
  });
});

describe("scheduling", () => {
  it("reads a local time in its IANA zone, across daylight saving", () => {
    expect(zonedDateTimeToUtc("2026-07-01T09:00", "Europe/Lisbon").toISOString()).toBe("2026-07-01T08:00:00.000Z");
    expect(zonedDateTimeToUtc("2026-12-01T09:00", "Europe/Lisbon").toISOString()).toBe("2026-12-01T09:00:00.000Z");
    expect(zonedDateTimeToUtc("2026-03-08T03:30", "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(zonedDateTimeToUtc("2026-12-01T09:00+05:30", "Europe/Lisbon").toISOString()).toBe("2026-12-01T03:30:00.000Z");
  });

  it("starts when due (housekeeping), not before; more than 24 h late it goes back to draft, marked missed", async () => {
    const fixture = await createBulkFixture({ contacts: 4 });
    const late = await createBulkFixture({ contacts: 2 });
    const db = await getDb();
    const now = new Date();
    const inOneHour = new Date(now.getTime() + 3_600_000);
    await scheduleBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { scheduledAt: inOneHour.toISOString(), timeZone: "Europe/Lisbon" }, { now });
    await scheduleBulkCampaign(db, late.workspaceId, late.campaignId, { scheduledAt: inOneHour.toISOString(), timeZone: "UTC" }, { now });
    const refused = await failure(scheduleBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { scheduledAt: "2020-01-01T00:00", timeZone: "UTC" }));
    expect(refused.errors?.[0]).toMatchObject({ path: "scheduledAt", code: "in_the_past" });
    expect((await failure(scheduleBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { scheduledAt: "2099-01-01T00:00", timeZone: "Mars/Base" }))).errors?.[0]).toMatchObject({
      path: "timeZone",
    });

    await runBulkHousekeeping(db, now);
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("scheduled");
    // The late one is seen for the first time 25 h after its time (the service was down).
    await db.update(campaigns).set({ scheduledAt: new Date(now.getTime() - 25 * 3_600_000) }).where(eq(campaigns.id, late.campaignId));
    await runBulkHousekeeping(db, new Date(inOneHour.getTime() + 1000));
    const started = await getCampaign(db, fixture.workspaceId, fixture.campaignId);
    expect(started.status).toBe("sending");
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 4 });
    const missed = await getCampaign(db, late.workspaceId, late.campaignId);
    expect(missed).toMatchObject({ status: "draft", bulk: { scheduleMissed: true } });
    expect(await bulkStatusCounts(late.campaignId)).toEqual({});
    expect(await auditActions(late.campaignId)).toEqual(["campaign.scheduled", "campaign.schedule_missed"]);
    expect(await auditActions(fixture.campaignId)).toEqual(["campaign.scheduled", "campaign.launched"]);
  });
});

describe("the daily messaging tier", () => {
  async function seedRecentSends(workspaceId: string, campaignId: string, count: number, sentAt: Date) {
    const db = await getDb();
    const [sender] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId));
    await db.insert(messages).values(
      Array.from({ length: count }, (_, i) => ({
        id: `msg_seed${i}${Math.random().toString(36).slice(2, 10)}`,
        workspaceId,
        campaignId,
        senderId: sender!.id,
        phoneNumber: testPhone(),
        templateName: "promo",
        templateLanguage: "en_US",
        renderedText: "Hi",
        status: "delivered" as const,
        source: "trigger" as const,
        sentAt,
        createdAt: sentAt,
      })),
    );
  }

  it("refuses an audience above the limit, warns when the tier is unknown, and with allowTierWait holds the rest until housekeeping releases it", async () => {
    const fixture = await createBulkFixture({ contacts: 20, provider: "whatsapp", tier: "TIER_250" });
    const db = await getDb();
    const now = new Date();
    await seedRecentSends(fixture.workspaceId, fixture.campaignId, 240, new Date(now.getTime() - 3_600_000));
    const check = await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId, now);
    expect(check).toMatchObject({ ready: false, audienceCount: 20, exceedsTier: true, sendableNow: 10, tier: { tier: "TIER_250", limit: 250, usedLast24h: 240, available: 10 } });
    const refused = await failure(launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { now }));
    expect(refused).toMatchObject({ status: 422, code: "launch_checks_failed" });
    expect(refused.detail).toContain("10 of 20");
    expect(refused.errors?.map((e) => e.code)).toEqual(["tier_exceeded"]);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({});

    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { now, allowTierWait: true });
    const stored = await bulkMessages(fixture.campaignId);
    const held = stored.filter((m) => m.nextAttemptAt.getTime() === HELD_UNTIL.getTime());
    expect(held).toHaveLength(10);
    expect(new Set(held.map((m) => m.errorCode))).toEqual(new Set(["tier_wait"]));
    const progress = await getBulkProgress(db, fixture.workspaceId, fixture.campaignId, now);
    expect(progress).toMatchObject({ held: 10, funnel: { queued: 20 } });
    // The window frees when the seeded sends turn 24 h old.
    expect(progress.waitingUntil).toBe(new Date(now.getTime() - 3_600_000 + 24 * 3_600_000).toISOString());

    // Still inside the window: nothing released, and the campaign is not complete.
    await runBulkHousekeeping(db, new Date(now.getTime() + 60_000));
    expect((await bulkMessages(fixture.campaignId)).filter((m) => m.nextAttemptAt.getTime() === HELD_UNTIL.getTime())).toHaveLength(10);
    // The first ten were sent; a day later the window has room again.
    await db
      .update(messages)
      .set({ status: "sent", sentAt: new Date(now.getTime() + 1000) })
      .where(and(eq(messages.campaignId, fixture.campaignId), eq(messages.source, "bulk"), sql`${messages.nextAttemptAt} < ${HELD_UNTIL.toISOString()}::timestamptz`));
    await runBulkHousekeeping(db, new Date(now.getTime() + 22 * 3_600_000));
    expect((await bulkMessages(fixture.campaignId)).filter((m) => m.nextAttemptAt.getTime() === HELD_UNTIL.getTime())).toHaveLength(10);
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("sending");
    const later = new Date(now.getTime() + 23 * 3_600_000 + 60_000);
    await runBulkHousekeeping(db, later);
    const released = (await bulkMessages(fixture.campaignId)).filter((m) => m.status === "queued");
    expect(released).toHaveLength(10);
    for (const message of released) {
      expect(message.nextAttemptAt.getTime()).toBe(later.getTime());
      expect(message.errorCode).toBeNull();
    }
  });

  it("an unknown tier warns and never blocks", async () => {
    const fixture = await createBulkFixture({ contacts: 3, provider: "whatsapp", tier: null });
    const db = await getDb();
    const check = await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId);
    expect(check).toMatchObject({ ready: true, exceedsTier: false, tier: { tier: null, limit: null }, warnings: [expect.objectContaining({ code: "tier_unknown" })] });
  });

  it("two launches at once on a TIER_250 number (200 recipients each): the second waits for the first and is refused", async () => {
    const fixture = await createBulkFixture({ contacts: 200, provider: "whatsapp", tier: "TIER_250" });
    const db = await getDb();
    const other = await createCampaign(db, fixture.workspaceId, {
      kind: "bulk",
      name: "Promo again",
      audience: { listIds: [fixture.listId], segmentIds: [] },
      templateId: fixture.templateId,
      messageConfig: PROMO_MESSAGE_CONFIG,
    });
    let second: Promise<PromiseSettledResult<unknown>> | undefined;
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, {
      // 50 messages written, 150 still in snapshot chunks: both count against the limit.
      snapshotChunkSize: 50,
      // The other launch starts while this one holds its 200 queued messages uncommitted; given time,
      // it must not finish (it would have counted the limit as free).
      afterSnapshot: async () => {
        second = launchBulkCampaign(db, fixture.workspaceId, other.id).then(
          (value) => ({ status: "fulfilled" as const, value }),
          (reason: unknown) => ({ status: "rejected" as const, reason }),
        );
        await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      },
    });
    const outcome = await second!;
    expect(outcome.status).toBe("rejected");
    const refused = (outcome as PromiseRejectedResult).reason as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: "launch_checks_failed" });
    expect(refused.detail).toContain("50 of 200");
    expect(refused.errors?.map((e) => e.code)).toEqual(["tier_exceeded"]);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 50 });
    expect(await bulkStatusCounts(other.id)).toEqual({});
    expect((await getCampaign(db, fixture.workspaceId, other.id)).status).toBe("draft");
  });

  it("counts per WhatsApp business account: across sender re-saves (a new sender id) and across the account's numbers", async () => {
    const fixture = await createBulkFixture({ contacts: 20, provider: "whatsapp", tier: "TIER_250" });
    const db = await getDb();
    const now = new Date();
    const [before] = await db.select().from(senders).where(eq(senders.workspaceId, fixture.workspaceId));
    await seedRecentSends(fixture.workspaceId, fixture.campaignId, 240, new Date(now.getTime() - 3_600_000));
    expect((await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId, now)).tier).toMatchObject({ usedLast24h: 240, available: 10 });

    // To the sandbox and back, same number: two new sender ids, the same business account.
    const form = { provider: "whatsapp" as const, phoneNumberId: before!.phoneNumberId!, wabaId: before!.wabaId! };
    await updateSenderSettings(db, fixture.workspaceId, { provider: "sandbox" });
    await updateSenderSettings(db, fixture.workspaceId, form);
    const [after] = await db.select().from(senders).where(eq(senders.workspaceId, fixture.workspaceId));
    expect(after!.id).not.toBe(before!.id);
    expect(after!.messagingTier).toBe("TIER_250");
    expect((await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId, now)).tier).toMatchObject({ usedLast24h: 240, available: 10 });
    // Another number of the same account: its sends count too (the limit is shared by the account's numbers).
    await updateSenderSettings(db, fixture.workspaceId, { ...form, phoneNumberId: "109876543210987" });
    await db.update(senders).set({ messagingTier: "TIER_250" }).where(eq(senders.workspaceId, fixture.workspaceId));
    expect((await getLaunchCheck(db, fixture.workspaceId, fixture.campaignId, now)).tier).toMatchObject({ usedLast24h: 240, available: 10 });
    const refused = await failure(launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { now }));
    expect(refused.errors?.map((e) => e.code)).toEqual(["tier_exceeded"]);

    // A number of the same account in another workspace shares the limit; another account does not.
    const sameAccount = await createBulkFixture({ contacts: 1, provider: "whatsapp", tier: "TIER_250" });
    await updateSenderSettings(db, sameAccount.workspaceId, { ...form, phoneNumberId: "105555555555555" });
    await db.update(senders).set({ messagingTier: "TIER_250" }).where(eq(senders.workspaceId, sameAccount.workspaceId));
    expect((await getLaunchCheck(db, sameAccount.workspaceId, sameAccount.campaignId, now)).tier).toMatchObject({ usedLast24h: 240, available: 10 });
    const otherAccount = await createBulkFixture({ contacts: 1, provider: "whatsapp", tier: "TIER_250" });
    expect((await getLaunchCheck(db, otherAccount.workspaceId, otherAccount.campaignId, now)).tier).toMatchObject({ usedLast24h: 0, available: 250 });
  });
});

describe("progress and the campaigns list", () => {
  it("counts one cumulative funnel, test sends left out", async () => {
    const fixture = await createBulkFixture({ contacts: 6 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    const at = new Date();
    const set = (i: number, values: Partial<typeof messages.$inferInsert>) => db.update(messages).set(values).where(eq(messages.id, stored[i]!.id));
    await set(0, { status: "sent", sentAt: at });
    await set(1, { status: "delivered", sentAt: at, deliveredAt: at });
    await set(2, { status: "read", sentAt: at, deliveredAt: at, readAt: at });
    await set(3, { status: "failed", errorCode: "131049", errorReason: "Meta chose not to deliver.", failedAt: at });
    await db.insert(messages).values({
      id: "msg_testsend" + Math.random().toString(36).slice(2, 10),
      workspaceId: fixture.workspaceId,
      campaignId: fixture.campaignId,
      phoneNumber: testPhone(),
      templateName: "promo",
      templateLanguage: "en_US",
      renderedText: "Hi",
      status: "read",
      source: "test",
    });
    const progress = await getBulkProgress(db, fixture.workspaceId, fixture.campaignId, new Date(at.getTime() + 1000));
    expect(progress).toMatchObject({
      status: "sending",
      total: 6,
      funnel: { queued: 2, sent: 3, delivered: 2, read: 1, failed: 1, skipped: 0, replied: 0 },
      topFailureReasons: [{ code: "131049", reason: "Meta chose not to deliver.", count: 1 }],
      ratePerSecond: 0.3,
      waitingUntil: null,
    });
    expect(progress.estimatedFinishAt).not.toBeNull();
    const listed = (await listCampaigns(db, fixture.workspaceId)).data.find((c) => c.id === fixture.campaignId)!;
    expect(listed.stats).toEqual({ total: 6, queued: 2, sent: 3, delivered: 2, read: 1, failed: 1, skipped: 0, replied: 0 });
  });
});
