// The request log: every call to a trigger endpoint is recorded after the response, accepted or
// refused, with its status, problem and capped body; read back per campaign and workspace.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { triggerRequests } from "@/db/schema";
import { GET as listRequests } from "@/app/api/v1/campaigns/[id]/requests/route";
import { createApiKey } from "@/lib/api-keys/service";
import { isOwnerOrAdmin } from "@/lib/members/roles";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTestAccount, createTestMember } from "@/lib/testing/factories";
import { createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { triggerPost } from "./handler";
import { flushTriggerRequests, MAX_RECORDED_BODY_BYTES, pruneTriggerRequests, recordedBodyFromBytes, recordTriggerRequest, type TriggerRequestEntry } from "./requests";
import type { TriggerRequestPage } from "./requests-query";

async function trigger(fx: TriggerFixture, body: string, { key = fx.apiKey, campaignId = fx.campaignId, query = "" } = {}) {
  const response = await triggerPost(
    new Request(`http://localhost/api/campaigns/${campaignId}/trigger${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key, "x-shopify-hmac-sha256": "should-never-be-stored" },
      body,
    }),
    { params: Promise.resolve({ id: campaignId }) },
  );
  await flushTriggerRequests();
  return response;
}

async function list(fx: TriggerFixture, query = "", { key = fx.apiKey, campaignId = fx.campaignId } = {}) {
  const response = await listRequests(
    new Request(`http://localhost/api/v1/campaigns/${campaignId}/requests?${query}`, { headers: { "x-api-key": key } }),
    { params: Promise.resolve({ id: campaignId }) },
  );
  return { status: response.status, body: (await response.json()) as TriggerRequestPage };
}

const order = (phone = "+14155552671") => JSON.stringify({ phone, order: "ORD-1", first_name: "Jane" });

describe("the trigger request log", () => {
  it("records an accepted call with its key, status, message count and body, and no header", async () => {
    const fx = await createTriggerFixture();
    const response = await trigger(fx, order());
    expect(response.status).toBe(202);
    const { status, body } = await list(fx);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      status: 202,
      outcome: "accepted",
      dryRun: false,
      key: { id: fx.apiKeyId, name: "Test key" },
      requestId: response.headers.get("x-request-id"),
      error: null,
      messageCount: 1,
      body: order(),
      bodyBytes: order().length,
      bodyTruncated: false,
    });
    const db = await getDb();
    const stored = JSON.stringify(await db.select().from(triggerRequests).where(eq(triggerRequests.campaignId, fx.campaignId)));
    expect(stored).not.toContain("should-never-be-stored");
    expect(stored).not.toContain(fx.apiKey);
  });

  it("records refusals with the problem: 422 with field errors, 409 for a draft (still answered 409), 400 for broken JSON", async () => {
    const fx = await createTriggerFixture();
    expect((await trigger(fx, JSON.stringify({ phone: "4155552671", order: "A" }))).status).toBe(422);
    expect((await trigger(fx, "{not json")).status).toBe(400);
    const draft = await createTriggerFixture({ status: "draft" });
    expect((await trigger(draft, order())).status).toBe(409);

    const refused = (await list(fx)).body.data;
    expect(refused.map((r) => [r.status, r.outcome, r.error?.code])).toEqual([
      [400, "rejected", expect.any(String)],
      [422, "rejected", "validation_failed"],
    ]);
    expect(refused[0]!.body).toBe("{not json");
    expect(refused[1]!.error!.errors).toEqual([expect.objectContaining({ path: "phone", code: "invalid_phone" })]);
    expect(refused[1]!.messageCount).toBe(0);

    const drafts = (await list(draft)).body.data;
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ status: 409, error: { code: "campaign_not_active" }, body: order() });
  });

  it("filters by outcome and pages with a cursor", async () => {
    const fx = await createTriggerFixture();
    await trigger(fx, order("+14155552671"));
    await trigger(fx, JSON.stringify({ order: "missing phone" }));
    await trigger(fx, order("+447911123456"));
    expect((await list(fx, "outcome=accepted")).body.data.map((r) => r.status)).toEqual([202, 202]);
    expect((await list(fx, "outcome=rejected")).body.data.map((r) => r.status)).toEqual([422]);
    const first = await list(fx, "limit=2");
    expect(first.body.data.map((r) => r.body)).toEqual([order("+447911123456"), JSON.stringify({ order: "missing phone" })]);
    const second = await list(fx, `limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((r) => r.body)).toEqual([order("+14155552671")]);
    expect(second.body.nextCursor).toBeNull();
    expect((await list(fx, "outcome=maybe")).status).toBe(422);
    expect((await list(fx, "cursor=nope")).status).toBe(422);
  });

  it("keeps the first 8 KiB of a body, marked truncated, with the full size", async () => {
    const fx = await createTriggerFixture();
    const big = JSON.stringify({ phone: "+14155552671", order: "ORD-1", note: "é".repeat(10_000) });
    await trigger(fx, big);
    const [record] = (await list(fx)).body.data;
    expect(record!.bodyTruncated).toBe(true);
    expect(record!.bodyBytes).toBe(Buffer.byteLength(big));
    expect(Buffer.byteLength(record!.body)).toBeLessThanOrEqual(MAX_RECORDED_BODY_BYTES);
    expect(big.startsWith(record!.body)).toBe(true);
  });

  it("keeps the body of a call refused before or while its body was read (415, 413)", async () => {
    const fx = await createTriggerFixture();
    const plain = await triggerPost(
      new Request(`http://localhost/api/campaigns/${fx.campaignId}/trigger`, { method: "POST", headers: { "content-type": "text/plain", "x-api-key": fx.apiKey }, body: order() }),
      { params: Promise.resolve({ id: fx.campaignId }) },
    );
    expect(plain.status).toBe(415);
    await flushTriggerRequests();
    const tooLarge = JSON.stringify({ phone: "+14155552671", order: "ORD-1", note: "x".repeat(70_000) });
    expect((await trigger(fx, tooLarge)).status).toBe(413);
    // Written in two batches that may share a timestamp: looked up by status, not by position.
    const records = new Map((await list(fx)).body.data.map((r) => [r.status, r]));
    expect([...records.keys()].sort()).toEqual([413, 415]);
    expect(records.get(415)).toMatchObject({ body: order(), bodyBytes: order().length, bodyTruncated: false });
    expect(records.get(413)).toMatchObject({ bodyBytes: Buffer.byteLength(tooLarge), bodyTruncated: true });
    expect(tooLarge.startsWith(records.get(413)!.body)).toBe(true);
  });

  it("cuts a body between characters, never inside one", () => {
    const bytes = new TextEncoder().encode("a" + "é".repeat(MAX_RECORDED_BODY_BYTES));
    const kept = recordedBodyFromBytes(bytes);
    expect(kept.truncated).toBe(true);
    expect(kept.text).not.toContain("\uFFFD");
    expect(Buffer.byteLength(kept.text)).toBe(MAX_RECORDED_BODY_BYTES - 1);
  });

  it("is invisible to other workspaces: their key gets 404 and a call to a foreign campaign is not recorded", async () => {
    const fx = await createTriggerFixture();
    const other = await createTestAccount();
    const otherKey = (await createApiKey(await getDb(), other.workspaceId, { userId: other.id, ip: null, userAgent: null }, { name: "Other" })).key;
    await trigger(fx, order());
    expect((await list(fx, "", { key: otherKey })).status).toBe(404);
    expect((await trigger(fx, order(), { key: otherKey })).status).toBe(404);
    const db = await getDb();
    const rows = await db.select({ workspaceId: triggerRequests.workspaceId }).from(triggerRequests).where(eq(triggerRequests.campaignId, fx.campaignId));
    expect(rows).toEqual([{ workspaceId: fx.workspaceId }]);
  });

  it("is read by full-scope keys only: a trigger-only key gets 403, and its own calls are recorded under its name", async () => {
    const fx = await createTriggerFixture();
    const scoped = (
      await createApiKey(await getDb(), fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, {
        name: "Checkout only",
        scope: { type: "trigger", campaignIds: [fx.campaignId] },
      })
    ).key;
    expect((await trigger(fx, order(), { key: scoped })).status).toBe(202);
    expect((await list(fx, "", { key: scoped })).status).toBe(403);
    expect((await list(fx)).body.data.map((r) => r.key?.name)).toEqual(["Checkout only"]);
  });

  it("shows its bodies (phone numbers, addresses) to owners and admins in the web app, never to a member", async () => {
    const fx = await createTriggerFixture();
    await trigger(fx, order());
    const asRole = async (role: "admin" | "member" | "owner") => {
      const user = role === "owner" ? { id: fx.userId, email: undefined } : await createTestMember(fx.workspaceId, fx.userId, role);
      const cookie = await sessionCookie({ userId: user.id, workspaceId: fx.workspaceId, email: user.email });
      return callRoute<TriggerRequestPage & { type?: string }>(listRequests, "GET", `/api/v1/campaigns/${fx.campaignId}/requests`, { cookie, headers: SAME_ORIGIN, params: { id: fx.campaignId } });
    };
    const member = await asRole("member");
    expect(member.status).toBe(403);
    expect(member.body.type).toBe("/docs/api#error-admin_required");
    expect(JSON.stringify(member.body)).not.toContain("+14155552671");
    for (const role of ["admin", "owner"] as const) {
      const allowed = await asRole(role);
      expect(allowed.status, role).toBe(200);
      expect(allowed.body.data[0]!.body).toContain("+14155552671");
    }
    // The Requests tab and the audit log page apply the same rule.
    expect([isOwnerOrAdmin("owner"), isOwnerOrAdmin("admin"), isOwnerOrAdmin("member")]).toEqual([true, true, false]);
  });

  it("deletes records older than 7 days and keeps the rest", async () => {
    const fx = await createTriggerFixture();
    await trigger(fx, order());
    await trigger(fx, order("+447911123456"));
    const db = await getDb();
    const [oldest] = (await list(fx)).body.data.slice(-1);
    await db.execute(sql`update trigger_requests set created_at = now() - interval '8 days' where id = ${oldest!.id}`);
    expect(await pruneTriggerRequests(db)).toBeGreaterThanOrEqual(1);
    expect((await list(fx)).body.data.map((r) => r.id)).not.toContain(oldest!.id);
    expect((await list(fx)).body.data).toHaveLength(1);
  });

  it("keeps every other workspace's entries of a batch when one entry holds text Postgres cannot store, or fails", async () => {
    const good = await createTriggerFixture();
    const bad = await createTriggerFixture();
    const entry = (fx: TriggerFixture, overrides: Partial<TriggerRequestEntry> = {}): TriggerRequestEntry => ({
      workspaceId: fx.workspaceId,
      campaignId: fx.campaignId,
      apiKeyId: null,
      keyName: "Shop",
      requestId: "req-1",
      status: 202,
      dryRun: false,
      errorCode: null,
      problem: null,
      messageCount: 1,
      body: { text: "{}", bytes: 2, truncated: false },
      source: null,
      ignoredReason: null,
      ...overrides,
    });
    const written = Promise.all([
      recordTriggerRequest(entry(good)),
      // A NUL in the campaign id (the path as sent), in a key name and a problem: stored with U+FFFD, or dropped by the join.
      recordTriggerRequest(entry(bad, { campaignId: `${bad.campaignId}\u0000` })),
      recordTriggerRequest(entry(bad, { keyName: "Shop\u0000", problem: { title: "Bad", detail: "lone \ud800 surrogate" }, status: 422, messageCount: 0 })),
      // A row the database refuses for another reason still leaves the rest of its batch.
      recordTriggerRequest(entry(bad, { messageCount: 2 ** 40 })),
      recordTriggerRequest(entry(good, { requestId: "req-2" })),
    ]);
    await flushTriggerRequests();
    await written;
    const db = await getDb();
    const rows = await db
      .select({ workspaceId: triggerRequests.workspaceId, requestId: triggerRequests.requestId, keyName: triggerRequests.keyName, problem: triggerRequests.problem })
      .from(triggerRequests)
      .where(sql`${triggerRequests.campaignId} in (${good.campaignId}, ${bad.campaignId})`);
    expect(rows.filter((r) => r.workspaceId === good.workspaceId).map((r) => r.requestId).sort()).toEqual(["req-1", "req-2"]);
    expect(rows.filter((r) => r.workspaceId === bad.workspaceId)).toEqual([
      { workspaceId: bad.workspaceId, requestId: "req-1", keyName: "Shop\ufffd", problem: { title: "Bad", detail: "lone \ufffd surrogate" } },
    ]);
  });
});

