import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { auditEvents, campaignSources } from "@/db/schema";
import { createApiAccount, callRoute, sessionCookie } from "@/lib/testing/api-factories";
import { createTestMember } from "@/lib/testing/factories";
import { createTriggerFixture } from "@/lib/testing/trigger-factories";
import { loadSignedSource } from "@/lib/sources/service";
import type { CampaignSource } from "@/lib/sources/kinds";
import * as source from "./route";
import * as secret from "./secret/route";

async function fixture() {
  const fx = await createTriggerFixture();
  const account = await createApiAccount();
  // The key of another workspace, and a full key of the fixture's workspace.
  const { createApiKey } = await import("@/lib/api-keys/service");
  const { key } = await createApiKey(await getDb(), fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, { name: "Full" });
  return { fx, key, otherKey: account.key };
}

const url = (id: string, tail = "") => `/api/v1/campaigns/${id}/source${tail}`;

describe("campaign source routes", () => {
  it("reads api_key for a campaign never configured, with the trigger URL", async () => {
    const { fx, key } = await fixture();
    const res = await callRoute<CampaignSource>(source.GET, "GET", url(fx.campaignId), { key, params: { id: fx.campaignId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: "api_key",
      topics: [],
      secret: { set: false, last4: null, createdAt: null, previousExpiresAt: null },
      url: `http://localhost/api/campaigns/${fx.campaignId}/trigger`,
    });
  });

  it("sets kind and topics, then a pasted secret shown once (stored encrypted), audited", async () => {
    const { fx, key } = await fixture();
    const put = await callRoute<CampaignSource>(source.PUT, "PUT", url(fx.campaignId), {
      key,
      params: { id: fx.campaignId },
      body: { kind: "shopify", topics: ["orders/create", "orders/create", "orders/fulfilled"] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ kind: "shopify", topics: ["orders/create", "orders/fulfilled"], secret: { set: false } });

    const set = await callRoute<{ secret: string; source: CampaignSource }>(secret.POST, "POST", url(fx.campaignId, "/secret"), {
      key,
      params: { id: fx.campaignId },
      body: { secret: "shpss_0123456789abcdef" },
    });
    expect(set.status).toBe(201);
    expect(set.body.secret).toBe("shpss_0123456789abcdef");
    expect(set.body.source.secret).toMatchObject({ set: true, last4: "cdef", createdAt: expect.any(String), previousExpiresAt: null });

    const db = await getDb();
    const [row] = await db.select().from(campaignSources).where(eq(campaignSources.campaignId, fx.campaignId));
    expect(row!.secretEncrypted).toMatch(/^v2\./);
    expect(row!.secretEncrypted).not.toContain("0123456789abcdef");
    const audits = await db.select().from(auditEvents).where(eq(auditEvents.targetId, fx.campaignId));
    expect(audits.map((a) => a.action).sort()).toEqual(["campaign.source_changed", "campaign.source_secret_set"]);
    expect(JSON.stringify(audits)).not.toContain("0123456789abcdef");

    const got = await callRoute<CampaignSource>(source.GET, "GET", url(fx.campaignId), { key, params: { id: fx.campaignId } });
    expect(got.body).toMatchObject({ kind: "shopify", secret: { set: true, last4: "cdef" } });
    expect(JSON.stringify(got.body)).not.toContain("0123456789abcdef");
  });

  it("generates per kind and rolls with an overlap: the previous secret verifies until it expires", async () => {
    const { fx, key } = await fixture();
    await callRoute(source.PUT, "PUT", url(fx.campaignId), { key, params: { id: fx.campaignId }, body: { kind: "standard_webhooks", topics: [] } });
    const first = await callRoute<{ secret: string }>(secret.POST, "POST", url(fx.campaignId, "/secret"), { key, params: { id: fx.campaignId } });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const second = await callRoute<{ secret: string; source: CampaignSource }>(secret.POST, "POST", url(fx.campaignId, "/secret"), {
      key,
      params: { id: fx.campaignId },
      body: { overlapHours: 2 },
    });
    expect(second.body.source.secret.previousExpiresAt).not.toBeNull();
    const expires = Date.parse(second.body.source.secret.previousExpiresAt!);
    expect(Math.abs(expires - Date.now() - 2 * 3600_000)).toBeLessThan(60_000);
    const loaded = await loadSignedSource(await getDb(), fx.campaignId);
    expect(loaded).toMatchObject({ workspaceId: fx.workspaceId, kind: "standard_webhooks", secrets: [second.body.secret, first.body.secret] });

    // Without an overlap the replaced secret stops at once.
    const third = await callRoute<{ secret: string; source: CampaignSource }>(secret.POST, "POST", url(fx.campaignId, "/secret"), {
      key,
      params: { id: fx.campaignId },
      body: { overlapHours: 0 },
    });
    expect(third.body.source.secret.previousExpiresAt).toBeNull();
    expect((await loadSignedSource(await getDb(), fx.campaignId))!.secrets).toEqual([third.body.secret]);

    // Another kind drops the secret; back to API keys, nothing is loaded for the signed path.
    const shopify = await callRoute<CampaignSource>(source.PUT, "PUT", url(fx.campaignId), { key, params: { id: fx.campaignId }, body: { kind: "shopify" } });
    expect(shopify.body.secret.set).toBe(false);
    const generated = await callRoute<{ secret: string }>(secret.POST, "POST", url(fx.campaignId, "/secret"), { key, params: { id: fx.campaignId } });
    expect(generated.body.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    await callRoute(source.PUT, "PUT", url(fx.campaignId), { key, params: { id: fx.campaignId }, body: { kind: "api_key" } });
    expect(await loadSignedSource(await getDb(), fx.campaignId)).toBeNull();
  });

  it("refuses bad input with clear problems and writes nothing", async () => {
    const { fx, key } = await fixture();
    const put = (body: unknown) => callRoute<{ errors?: { path: string }[] }>(source.PUT, "PUT", url(fx.campaignId), { key, params: { id: fx.campaignId }, body });
    expect((await put({ kind: "paypal" })).status).toBe(422);
    expect((await put({ kind: "shopify", topics: ["orders create"] })).status).toBe(422);
    expect((await put({ kind: "shopify", topics: Array.from({ length: 21 }, (_, i) => `t${i}`) })).status).toBe(422);
    expect((await put({ kind: "shopify", extra: 1 })).status).toBe(422);
    expect((await put("not json{")).status).toBe(400);

    const post = (body?: unknown) => callRoute<{ type?: string; errors?: { path: string }[] }>(secret.POST, "POST", url(fx.campaignId, "/secret"), { key, params: { id: fx.campaignId }, body });
    const notSigned = await post();
    expect(notSigned.status).toBe(409);
    expect(notSigned.body.type).toBe("/docs/api#error-source_not_signed");

    await put({ kind: "stripe" });
    const shortSecret = await post({ secret: "short" });
    expect(shortSecret.status).toBe(422);
    expect(shortSecret.body.errors?.[0]?.path).toBe("secret");
    expect((await post({ secret: "x".repeat(257) })).status).toBe(422);
    expect((await post({ secret: "whsec_abc\u0001defgh" })).status).toBe(422);
    const notStripe = await post({ secret: "sk_test_0123456789" });
    expect(notStripe.status).toBe(422);
    expect(notStripe.body.errors?.[0]?.path).toBe("secret");
    expect((await post({ overlapHours: 73 })).status).toBe(422);
    expect((await post({ overlapHours: -1 })).status).toBe(422);

    const db = await getDb();
    const [row] = await db.select().from(campaignSources).where(eq(campaignSources.campaignId, fx.campaignId));
    expect(row!.secretEncrypted).toBeNull();
  });

  it("another workspace's campaign is 404, a bulk campaign 409, a trigger-only key 403; a member may configure", async () => {
    const { fx, otherKey } = await fixture();
    const foreign = await callRoute<{ code: string }>(source.GET, "GET", url(fx.campaignId), { key: otherKey, params: { id: fx.campaignId } });
    expect(foreign.status).toBe(404);
    const foreignPut = await callRoute(source.PUT, "PUT", url(fx.campaignId), { key: otherKey, params: { id: fx.campaignId }, body: { kind: "shopify" } });
    expect(foreignPut.status).toBe(404);
    const foreignSecret = await callRoute(secret.POST, "POST", url(fx.campaignId, "/secret"), { key: otherKey, params: { id: fx.campaignId } });
    expect(foreignSecret.status).toBe(404);

    const bulk = await createTriggerFixture({ kind: "bulk" });
    const bulkCookie = await sessionCookie({ userId: bulk.userId, workspaceId: bulk.workspaceId });
    const bulkGet = await callRoute<{ type: string }>(source.GET, "GET", url(bulk.campaignId), { cookie: bulkCookie, params: { id: bulk.campaignId } });
    expect(bulkGet.status).toBe(409);
    expect(bulkGet.body.type).toBe("/docs/api#error-not_a_trigger_campaign");

    const member = await createTestMember(fx.workspaceId, fx.userId, "member");
    const cookie = await sessionCookie({ userId: member.id, workspaceId: fx.workspaceId });
    const byMember = await callRoute(source.PUT, "PUT", url(fx.campaignId), {
      cookie,
      params: { id: fx.campaignId },
      headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" },
      body: { kind: "woocommerce", topics: ["order.created"] },
    });
    expect(byMember.status).toBe(200);

    const { createApiKey } = await import("@/lib/api-keys/service");
    const { key: triggerOnly } = await createApiKey(await getDb(), fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, {
      name: "Trigger only",
      scope: { type: "trigger", campaignIds: [fx.campaignId] },
    });
    expect((await callRoute(source.GET, "GET", url(fx.campaignId), { key: triggerOnly, params: { id: fx.campaignId } })).status).toBe(403);
  });
});
