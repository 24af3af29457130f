// Trigger-only keys through the real route handlers, on both databases, with tenant isolation.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { POST as TRIGGER } from "@/app/api/campaigns/[id]/trigger/route";
import { POST as OUTBOUND } from "@/app/outbound/[id]/route";
import { GET as LIST_CAMPAIGNS } from "@/app/api/v1/campaigns/route";
import { GET as GET_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { POST as PAUSE } from "@/app/api/v1/campaigns/[id]/pause/route";
import { GET as ME } from "@/app/api/v1/me/route";
import { GET as LIST_KEYS, POST as CREATE_KEY } from "@/app/api/keys/route";
import { callRoute, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { createTriggerCampaign, createTriggerFixture, type TriggerFixture } from "@/lib/testing/trigger-factories";
import type { ApiKeyListItem, CreatedApiKey } from "./schemas";
import { createApiKey, listApiKeys } from "./service";

let fx: TriggerFixture;
let other: TriggerFixture;
let secondCampaignId: string;
let triggerKey: CreatedApiKey;

const order = { phone: "+14155552671", order: "ORD-1", first_name: "Jane" };
const trigger = (key: string, campaignId: string, handler = TRIGGER) =>
  callRoute(handler, "POST", `/api/campaigns/${campaignId}/trigger?dryRun=true`, { key, params: { id: campaignId }, body: order });

beforeAll(async () => {
  fx = await createTriggerFixture();
  other = await createTriggerFixture();
  secondCampaignId = await createTriggerCampaign(fx.workspaceId, fx.templateId);
  triggerKey = await createApiKey(await getDb(), fx.workspaceId, { userId: fx.userId, ip: null, userAgent: null }, {
    name: "Shop checkout",
    scope: { type: "trigger", campaignIds: [fx.campaignId] },
  });
});

describe("API key scopes", () => {
  it("creates a trigger-only key for the workspace's own campaigns, and lists its scope", async () => {
    expect(triggerKey.scope).toEqual({ type: "trigger", campaignIds: [fx.campaignId] });
    const keys = await listApiKeys(await getDb(), fx.workspaceId);
    expect(keys.find((k) => k.id === triggerKey.id)?.scope).toEqual({ type: "trigger", campaignIds: [fx.campaignId] });
    expect(keys.find((k) => k.id === fx.apiKeyId)?.scope).toEqual({ type: "full" });
  });

  it("refuses another workspace's campaign, an empty list and an unknown scope (422)", async () => {
    const cookie = await sessionCookie({ userId: fx.userId, workspaceId: fx.workspaceId });
    const create = (scope: unknown) => callRoute(CREATE_KEY, "POST", "/api/keys", { cookie, headers: SAME_ORIGIN, body: { name: "x", scope } });
    const foreign = await create({ type: "trigger", campaignIds: [fx.campaignId, other.campaignId] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([expect.objectContaining({ path: "scope.campaignIds[1]", code: "not_found" })]);
    expect((await create({ type: "trigger", campaignIds: [] })).status).toBe(422);
    expect((await create("admin")).status).toBe(422);
    const created = await create({ type: "trigger", campaignIds: [secondCampaignId] });
    expect(created.status).toBe(201);
    expect(created.body.scope).toEqual({ type: "trigger", campaignIds: [secondCampaignId] });
    const listed = await callRoute<{ data: ApiKeyListItem[] }>(LIST_KEYS, "GET", "/api/keys", { cookie });
    expect(listed.body.data.find((k) => k.id === created.body.id)?.scope).toEqual({ type: "trigger", campaignIds: [secondCampaignId] });
  });

  it("a trigger-only key triggers its campaign on both paths, like a full key", async () => {
    const full = await trigger(fx.apiKey, fx.campaignId);
    expect(full.status).toBe(200);
    expect((await trigger(triggerKey.key, fx.campaignId)).status).toBe(200);
    expect((await trigger(triggerKey.key, fx.campaignId, OUTBOUND)).status).toBe(200);
  });

  it("403 for its workspace's other campaigns, 404 for another workspace's and for missing ones", async () => {
    const own = await trigger(triggerKey.key, secondCampaignId);
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ type: "/docs/api#error-insufficient_scope" });
    const foreign = await trigger(triggerKey.key, other.campaignId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ ...(await trigger(fx.apiKey, other.campaignId)).body, requestId: expect.any(String) });
    expect((await trigger(triggerKey.key, "cmp_doesnotexist")).status).toBe(404);
  });

  it("403 on every other API route, before anything is read or changed; GET /api/v1/me still answers", async () => {
    const id = fx.campaignId;
    for (const [handler, method, url] of [
      [LIST_CAMPAIGNS, "GET", "/api/v1/campaigns"],
      [GET_CAMPAIGN, "GET", `/api/v1/campaigns/${id}`],
      [PAUSE, "POST", `/api/v1/campaigns/${id}/pause`],
    ] as const) {
      const response = await callRoute(handler, method, url, { key: triggerKey.key, params: { id } });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ type: "/docs/api#error-insufficient_scope" });
    }
    expect((await callRoute(GET_CAMPAIGN, "GET", `/api/v1/campaigns/${id}`, { key: fx.apiKey, params: { id } })).body).toMatchObject({ status: "active" });
    const me = await callRoute(ME, "GET", "/api/v1/me", { key: triggerKey.key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ key: { id: triggerKey.id, name: "Shop checkout" } });
  });
});
