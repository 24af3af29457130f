// The bulk campaign routes under /api/v1, called as Next calls them, with a real API key.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { campaigns, messages } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/service";
import { dispatchSettled } from "@/lib/messaging";
import { parseStrict } from "@/lib/http/request";
import { campaignSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount, type ApiAccount } from "@/lib/testing/api-factories";
import { POST as COUNT } from "@/app/api/v1/audiences/count/route";
import { POST as CREATE } from "@/app/api/v1/campaigns/route";
import { GET as GET_CAMPAIGN, PATCH } from "@/app/api/v1/campaigns/[id]/route";
import { POST as PREVIEW } from "@/app/api/v1/campaigns/preview/route";
import { POST as TEST_SEND } from "@/app/api/v1/campaigns/[id]/test-send/route";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { POST as SCHEDULE } from "@/app/api/v1/campaigns/[id]/schedule/route";
import { POST as LAUNCH } from "@/app/api/v1/campaigns/[id]/launch/route";
import { POST as PAUSE } from "@/app/api/v1/campaigns/[id]/pause/route";
import { POST as RESUME } from "@/app/api/v1/campaigns/[id]/resume/route";
import { POST as CANCEL } from "@/app/api/v1/campaigns/[id]/cancel/route";
import { GET as PROGRESS } from "@/app/api/v1/campaigns/[id]/progress/route";
import { POST as RETARGET } from "@/app/api/v1/campaigns/[id]/retarget/route";
import { bulkMessages, createBulkFixture, PROMO_MESSAGE_CONFIG, type BulkFixture } from "./test-fixtures";

type Body = Record<string, unknown> & { errors?: { path: string; code: string }[] };

let fixture: BulkFixture;
let key: string;
let stranger: ApiAccount;

const at = (id: string, path = "") => `/api/v1/campaigns/${id}${path}`;

beforeAll(async () => {
  fixture = await createBulkFixture({ contacts: 5, optedOut: 2 });
  ({ key } = await createApiKey(await getDb(), fixture.workspaceId, { userId: fixture.userId, ip: null, userAgent: null }, { name: "Bulk tests" }));
  stranger = await createApiAccount();
});

describe("bulk campaign routes", () => {
  it("creates a bulk draft with its audience, template and rate (201, the documented shape)", async () => {
    const created = await callRoute<Body>(CREATE, "POST", "/api/v1/campaigns", {
      key,
      body: { kind: "bulk", name: "Winter sale", audience: { listIds: [fixture.listId] }, templateId: fixture.templateId, messageConfig: PROMO_MESSAGE_CONFIG, sendRatePerSecond: 20 },
    });
    expect(created.status).toBe(201);
    const campaign = parseStrict(campaignSchema, created.body);
    expect(campaign).toMatchObject({ kind: "bulk", status: "draft", deployment: null, bulk: { audience: { listIds: [fixture.listId], segmentIds: [] }, sendRatePerSecond: 20, scheduleMissed: false } });
    const tooFast = await callRoute<Body>(PATCH, "PATCH", at(campaign.id), { key, params: { id: campaign.id }, body: { sendRatePerSecond: 1000 } });
    expect(tooFast.status).toBe(422);
    const unknownList = await callRoute<Body>(CREATE, "POST", "/api/v1/campaigns", { key, body: { kind: "bulk", name: "X", audience: { listIds: ["lst_doesnotexist"] } } });
    expect(unknownList.status).toBe(404);
  });

  it("counts the audience live, opted-out contacts left out and reported", async () => {
    const counted = await callRoute<Body>(COUNT, "POST", "/api/v1/audiences/count", { key, body: { listIds: [fixture.listId], segmentIds: [] } });
    expect(counted).toMatchObject({ status: 200, body: { count: 5, optedOutExcluded: 2 } });
    const excluded = await callRoute<Body>(COUNT, "POST", "/api/v1/audiences/count", { key, body: { listIds: [fixture.listId], excludeContactIds: [fixture.contactIds[0]] } });
    expect(excluded.body).toMatchObject({ count: 4 });
    expect((await callRoute<Body>(COUNT, "POST", "/api/v1/audiences/count", { key, body: { listIds: [fixture.listId], extra: 1 } })).status).toBe(422);
    expect((await callRoute<Body>(COUNT, "POST", "/api/v1/audiences/count", { key: stranger.key, body: { listIds: [fixture.listId] } })).status).toBe(404);
  });

  it("previews the message for real contacts by index, with empty variables counted", async () => {
    const body = { audience: { listIds: [fixture.listId] }, templateId: fixture.templateId, messageConfig: PROMO_MESSAGE_CONFIG, index: 1 };
    const preview = await callRoute<Body>(PREVIEW, "POST", "/api/v1/campaigns/preview", { key, body });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ total: 5, index: 1, emptyVariables: [], contactsWithEmptyVariables: 0 });
    const contact = preview.body.contact as { id: string; name: string };
    expect(fixture.contactIds).toContain(contact.id);
    expect((preview.body.rendered as { text: string }).text).toContain(`Hi ${contact.name}, use code`);
    const past = await callRoute<Body>(PREVIEW, "POST", "/api/v1/campaigns/preview", { key, body: { ...body, index: 99 } });
    expect(past.body).toMatchObject({ total: 5, contact: null, rendered: null });
    const unmapped = { ...body, messageConfig: { variables: [{ key: "body.2", attribute: "missing_attribute", fallback: null }] }, index: 0 };
    const empty = await callRoute<Body>(PREVIEW, "POST", "/api/v1/campaigns/preview", { key, body: unmapped });
    expect(empty.body).toMatchObject({ contactsWithEmptyVariables: 5 });
    expect(empty.body.emptyVariables).toContain("body.2");
  });

  it("test-sends to phones as test messages, never counted in the campaign", async () => {
    const sent = await callRoute<{ data: { source: string; status: string; phone: string; text: string }[] }>(TEST_SEND, "POST", at(fixture.campaignId, "/test-send"), {
      key,
      params: { id: fixture.campaignId },
      body: { phones: ["+14155552671", "+14155552671"] },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toHaveLength(1);
    expect(sent.body.data[0]).toMatchObject({ source: "test", phone: "+14155552671" });
    expect(sent.body.data[0]!.text).toMatch(/^Hello Person \d/);
    const invalid = await callRoute<Body>(TEST_SEND, "POST", at(fixture.campaignId, "/test-send"), { key, params: { id: fixture.campaignId }, body: { phones: ["12345"] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors?.[0]).toMatchObject({ path: "phones[0]" });
    const progress = await callRoute<Body>(PROGRESS, "GET", at(fixture.campaignId, "/progress"), { key, params: { id: fixture.campaignId } });
    expect(progress.body).toMatchObject({ status: "draft", total: 0 });
  });

  it("checks, launches (twice: the same answer), pauses, resumes, reports progress and cancels", async () => {
    const id = fixture.campaignId;
    const check = await callRoute<Body>(LAUNCH_CHECK, "GET", at(id, "/launch-check"), { key, params: { id } });
    expect(check).toMatchObject({ status: 200, body: { ready: true, audienceCount: 5, sendableNow: 5, exceedsTier: false, tier: { tier: "TIER_UNLIMITED", limit: null } } });
    const launched = await callRoute<Body>(LAUNCH, "POST", at(id, "/launch"), { key, params: { id } });
    expect(launched).toMatchObject({ status: 200, body: { status: "sending" } });
    const again = await callRoute<Body>(LAUNCH, "POST", at(id, "/launch"), { key, params: { id }, body: {} });
    expect(again.body).toEqual(launched.body);
    expect(await bulkMessages(id)).toHaveLength(5);
    // The launch started a dispatch pass in this process; let it end, then start the messages afresh
    // so the statuses below are the test's own.
    await dispatchSettled();
    await (await getDb())
      .update(messages)
      .set({ status: "queued", sentAt: null, deliveredAt: null, readAt: null, providerMessageId: null, attempts: 0, lockedUntil: null })
      .where(and(eq(messages.campaignId, id), eq(messages.source, "bulk")));
    // Its housekeeping may have completed the campaign once the sandbox sent everything.
    await (await getDb()).update(campaigns).set({ status: "sending", completedAt: null, version: launched.body.version as number }).where(eq(campaigns.id, id));
    expect((await callRoute<Body>(PATCH, "PATCH", at(id), { key, params: { id }, body: { name: "Late edit" } })).body).toMatchObject({ type: "/docs/api#error-campaign_not_editable" });
    expect((await callRoute<Body>(PAUSE, "POST", at(id, "/pause"), { key, params: { id } })).body).toMatchObject({ status: "paused" });
    expect((await callRoute<Body>(RESUME, "POST", at(id, "/resume"), { key, params: { id } })).body).toMatchObject({ status: "sending" });
    const progress = await callRoute<Body>(PROGRESS, "GET", at(id, "/progress"), { key, params: { id } });
    expect(progress.body).toMatchObject({ status: "sending", total: 5, funnel: { queued: 5, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 }, held: 0, waitingUntil: null });
    const db = await getDb();
    const [first, second] = await bulkMessages(id);
    await db.update(messages).set({ status: "failed", errorCode: "131049", errorReason: "Not delivered to keep engagement healthy.", failedAt: new Date() }).where(eq(messages.id, first!.id));
    await db.update(messages).set({ status: "delivered", sentAt: new Date(), deliveredAt: new Date() }).where(eq(messages.id, second!.id));
    const cancelled = await callRoute<Body>(CANCEL, "POST", at(id, "/cancel"), { key, params: { id }, body: { version: (launched.body.version as number) + 2 } });
    expect(cancelled).toMatchObject({ status: 200, body: { status: "cancelled" } });
    const final = await callRoute<Body>(PROGRESS, "GET", at(id, "/progress"), { key, params: { id } });
    expect(final.body).toMatchObject({ funnel: { queued: 0, sent: 1, delivered: 1, read: 0, failed: 1, skipped: 3 } });
    expect((await callRoute<Body>(CANCEL, "POST", at(id, "/cancel"), { key, params: { id } })).status).toBe(200);
    expect((await callRoute<Body>(LAUNCH, "POST", at(id, "/launch"), { key, params: { id } })).body).toMatchObject({ status: 409, type: "/docs/api#error-invalid_status_transition" });

    const retarget = await callRoute<Body>(RETARGET, "POST", at(id, "/retarget"), { key, params: { id }, body: { audience: "failed" } });
    expect(retarget.status).toBe(201);
    const draft = parseStrict(campaignSchema, retarget.body);
    expect(draft).toMatchObject({ kind: "bulk", status: "draft", templateId: fixture.templateId, bulk: { audience: { listIds: [], segmentIds: [], contactIds: [first!.contactId] } } });
    const notRead = await callRoute<Body>(RETARGET, "POST", at(id, "/retarget"), { key, params: { id }, body: { audience: "not_read", name: "Second try" } });
    expect((notRead.body.bulk as { audience: { contactIds: string[] } }).audience.contactIds.sort()).toEqual([first!.contactId, second!.contactId].sort());
    const notDelivered = await callRoute<Body>(RETARGET, "POST", at(id, "/retarget"), { key, params: { id }, body: { audience: "not_delivered" } });
    expect((notDelivered.body.bulk as { audience: { contactIds: string[] } }).audience.contactIds).toEqual([first!.contactId]);
    const relaunched = await callRoute<Body>(LAUNCH, "POST", at(draft.id, "/launch"), { key, params: { id: draft.id } });
    expect(relaunched.body).toMatchObject({ status: "sending" });
    expect((await bulkMessages(draft.id)).map((m) => m.contactId)).toEqual([first!.contactId]);
    expect((await callRoute<Body>(RETARGET, "POST", at(draft.id, "/retarget"), { key, params: { id: draft.id }, body: { audience: "failed" } })).body).toMatchObject({
      status: 409,
      type: "/docs/api#error-invalid_status_transition",
    });
  });

  it("schedules in a time zone, refuses bad input, and answers 422 with every failing check", async () => {
    const other = await createBulkFixture({ contacts: 2 });
    const { key: otherKey } = await createApiKey(await getDb(), other.workspaceId, { userId: other.userId, ip: null, userAgent: null }, { name: "k" });
    const id = other.campaignId;
    const scheduledAt = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    const scheduled = await callRoute<Body>(SCHEDULE, "POST", at(id, "/schedule"), { key: otherKey, params: { id }, body: { scheduledAt, timeZone: "America/New_York", allowTierWait: true } });
    expect(scheduled).toMatchObject({ status: 200, body: { status: "scheduled", bulk: { timeZone: "America/New_York", allowTierWait: true } } });
    const badZone = await callRoute<Body>(SCHEDULE, "POST", at(id, "/schedule"), { key: otherKey, params: { id }, body: { scheduledAt, timeZone: "Nowhere/City" } });
    expect(badZone.status).toBe(422);
    const fresh = await callRoute<Body>(CREATE, "POST", "/api/v1/campaigns", { key: otherKey, body: { kind: "bulk", name: "Empty" } });
    const refused = await callRoute<Body>(LAUNCH, "POST", at(fresh.body.id as string, "/launch"), { key: otherKey, params: { id: fresh.body.id as string } });
    expect(refused).toMatchObject({ status: 422, body: { type: "/docs/api#error-launch_checks_failed" } });
    expect(refused.body.errors?.map((e) => e.code).sort()).toEqual(["audience_missing", "template_missing"]);
  });

  it("answers 404 for another workspace's campaign and 409 for a trigger campaign", async () => {
    const id = fixture.campaignId;
    for (const [handler, method, path] of [
      [LAUNCH, "POST", "/launch"],
      [LAUNCH_CHECK, "GET", "/launch-check"],
      [PROGRESS, "GET", "/progress"],
      [CANCEL, "POST", "/cancel"],
      [TEST_SEND, "POST", "/test-send"],
      [RETARGET, "POST", "/retarget"],
      [SCHEDULE, "POST", "/schedule"],
    ] as const) {
      const body = path === "/test-send" ? { phones: ["+14155552671"] } : path === "/retarget" ? { audience: "failed" } : path === "/schedule" ? { scheduledAt: new Date(Date.now() + 86_400_000).toISOString(), timeZone: "UTC" } : undefined;
      const answer = await callRoute<Body>(handler, method, at(id, path), { key: stranger.key, params: { id }, body });
      expect(answer.status, path).toBe(404);
    }
    expect((await callRoute<Body>(GET_CAMPAIGN, "GET", at(id), { key: stranger.key, params: { id } })).status).toBe(404);
    const trigger = await callRoute<Body>(CREATE, "POST", "/api/v1/campaigns", { key, body: { name: "Webhook" } });
    const tid = trigger.body.id as string;
    expect((await callRoute<Body>(LAUNCH, "POST", at(tid, "/launch"), { key, params: { id: tid } })).body).toMatchObject({ status: 409, type: "/docs/api#error-not_a_bulk_campaign" });
    expect((await callRoute<Body>(PROGRESS, "GET", at(tid, "/progress"), { key, params: { id: tid } })).body).toMatchObject({ type: "/docs/api#error-not_a_bulk_campaign" });
  });
});
