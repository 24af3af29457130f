// Deliveries without an API key, verified by the campaign's signed source, through the real route
// handlers and request log on PGlite. Signatures are computed here with node:crypto.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, messages, triggerRequests } from "@/db/schema";
import { GET as listRequests } from "@/app/api/v1/campaigns/[id]/requests/route";
import { SYSTEM_ACTOR } from "@/lib/audit/service";
import { triggerConfigSchema, type TriggerConfig } from "@/lib/campaigns/schemas";
import { jobsSettled } from "@/lib/jobs/soon";
import type { SourceKind } from "@/lib/sources/kinds";
import { SOURCE_PRESETS, type SourcePreset } from "@/lib/sources/presets";
import { putCampaignSource, setSourceSecret } from "@/lib/sources/service";
import { withCountingGetDb } from "@/lib/testing/counting-db";
import { createTriggerFixture, ORDER_MESSAGE_CONFIG, type TriggerFixture } from "@/lib/testing/trigger-factories";
import { flushTriggerRequests } from "@/lib/trigger/requests";
import type { TriggerRequestPage } from "@/lib/trigger/requests-query";
import * as trigger from "./route";

const sample = (name: string) => readFileSync(path.join(process.cwd(), "lib/sources/samples", name));
const CHECKOUT = sample("shopify-checkouts-create.json");
const nowSeconds = () => Math.floor(Date.now() / 1000);

const CHECKOUT_TRIGGER: TriggerConfig = triggerConfigSchema.parse({
  phoneField: "phone",
  fields: [
    { field: "email", attribute: "email", type: "email", required: false },
    { field: "token", attribute: "order_id", type: "string", required: false },
  ],
});

async function signedCampaign(kind: SourceKind, topics: string[] = [], secret = "shpss_test_0123456789"): Promise<TriggerFixture & { secret: string }> {
  const fx = await createTriggerFixture({ triggerConfig: CHECKOUT_TRIGGER });
  const db = await getDb();
  await putCampaignSource(db, { workspaceId: fx.workspaceId, campaignId: fx.campaignId, source: { kind, topics }, actor: SYSTEM_ACTOR });
  if (kind !== "api_key") await setSourceSecret(db, { workspaceId: fx.workspaceId, campaignId: fx.campaignId, request: { secret, overlapHours: 0 }, actor: SYSTEM_ACTOR });
  return { ...fx, secret };
}

const shopifyHeaders = (secret: string, raw: Uint8Array, topic = "checkouts/create", id = "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043") => ({
  "content-type": "application/json",
  "x-shopify-topic": topic,
  "x-shopify-webhook-id": id,
  "x-shopify-hmac-sha256": createHmac("sha256", secret).update(raw).digest("base64"),
});

async function post(campaignId: string, body: Uint8Array | string, headers: Record<string, string>, extra: { requestId?: string } = {}) {
  const response = await trigger.POST(
    new Request(`http://localhost/api/campaigns/${campaignId}/trigger`, {
      method: "POST",
      headers: { ...headers, ...(extra.requestId ? { "x-request-id": extra.requestId } : {}) },
      body: typeof body === "string" ? body : Buffer.from(body),
    }),
    { params: Promise.resolve({ id: campaignId }) },
  );
  await flushTriggerRequests();
  return response;
}

async function sent(campaignId: string) {
  return (await getDb()).select().from(messages).where(eq(messages.campaignId, campaignId));
}

async function log(fx: TriggerFixture, query = "") {
  const response = await listRequests(
    new Request(`http://localhost/api/v1/campaigns/${fx.campaignId}/requests?${query}`, { headers: { "x-api-key": fx.apiKey } }),
    { params: Promise.resolve({ id: fx.campaignId }) },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as TriggerRequestPage).data;
}

afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  await jobsSettled();
});

describe("a Shopify source", () => {
  it("a real sample body signed as Shopify signs it → 202 and one queued message; the log names the source", async () => {
    const fx = await signedCampaign("shopify", ["checkouts/create"]);
    const response = await post(fx.campaignId, CHECKOUT, shopifyHeaders(fx.secret, CHECKOUT));
    expect(response.status).toBe(202);
    const body = (await response.json()) as { status: string; phone: string };
    expect(body).toMatchObject({ status: "queued", phone: "+13125550186" });
    expect(await sent(fx.campaignId)).toHaveLength(1);
    const [record] = await log(fx);
    expect(record).toMatchObject({
      status: 202,
      outcome: "accepted",
      key: null,
      messageCount: 1,
      source: { kind: "shopify", topic: "checkouts/create", deliveryId: "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043" },
      ignoredReason: null,
    });
  });

  it("the same delivery three times sends one message and answers the first response each time", async () => {
    const fx = await signedCampaign("shopify");
    const answers: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await post(fx.campaignId, CHECKOUT, shopifyHeaders(fx.secret, CHECKOUT, "checkouts/create", "delivery-3x"));
      expect(response.status).toBe(202);
      answers.push(await response.json());
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await sent(fx.campaignId)).toHaveLength(1);
    // The delivery id names the event: a repeat whose body changed (re-serialised) gets the first result too, never a 4xx.
    const changed = Buffer.from(JSON.stringify(JSON.parse(CHECKOUT.toString("utf8"))));
    const repeat = await post(fx.campaignId, changed, shopifyHeaders(fx.secret, changed, "checkouts/create", "delivery-3x"));
    expect(repeat.status).toBe(202);
    expect(await repeat.json()).toEqual(answers[0]);
    expect(await sent(fx.campaignId)).toHaveLength(1);
    // Another delivery of the same body is another message.
    expect((await post(fx.campaignId, CHECKOUT, shopifyHeaders(fx.secret, CHECKOUT, "checkouts/create", "delivery-other"))).status).toBe(202);
    expect(await sent(fx.campaignId)).toHaveLength(2);
  });

  it("a topic the campaign does not take → 202 ignored with the reason, logged, nothing sent; ?topic= and ?outcome=ignored filter", async () => {
    const fx = await signedCampaign("shopify", ["orders/create"]);
    const response = await post(fx.campaignId, CHECKOUT, shopifyHeaders(fx.secret, CHECKOUT, "checkouts/create", "d-ignored"));
    expect(response.status).toBe(202);
    const body = (await response.json()) as { status: string; reason: string };
    expect(body.status).toBe("ignored");
    expect(body.reason).toContain("checkouts/create");
    expect(await sent(fx.campaignId)).toHaveLength(0);
    const [record] = await log(fx, "outcome=ignored");
    expect(record).toMatchObject({ status: 202, outcome: "ignored", messageCount: 0, ignoredReason: body.reason, source: { topic: "checkouts/create" } });
    expect(await log(fx, "outcome=accepted")).toHaveLength(0);
    expect(await log(fx, "topic=checkouts%2Fcreate")).toHaveLength(1);
    expect(await log(fx, "topic=orders%2Fcreate")).toHaveLength(0);
  });

  it("a bad, missing or re-encoded signature → 401 invalid_signature with a log row; nothing sent", async () => {
    const fx = await signedCampaign("shopify");
    const reencoded = Buffer.from(JSON.stringify(JSON.parse(CHECKOUT.toString("utf8"))));
    const cases: Record<string, string>[] = [
      shopifyHeaders("another-secret", CHECKOUT),
      { ...shopifyHeaders(fx.secret, CHECKOUT), "x-shopify-hmac-sha256": "" },
    ];
    for (const headers of cases) {
      const response = await post(fx.campaignId, CHECKOUT, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(((await response.json()) as { type: string }).type).toBe("/docs/api#error-invalid_signature");
    }
    const response = await post(fx.campaignId, reencoded, shopifyHeaders(fx.secret, CHECKOUT));
    expect(response.status).toBe(401);
    expect(await sent(fx.campaignId)).toHaveLength(0);
    const records = await log(fx, "outcome=rejected");
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ status: 401, error: { code: "invalid_signature" }, source: { kind: "shopify" } });
  });

  it("a signed body that is not JSON → 415 or 400 as with a key; over the limit → 413", async () => {
    const fx = await signedCampaign("shopify");
    const text = Buffer.from("phone=+13125550186");
    expect((await post(fx.campaignId, text, { ...shopifyHeaders(fx.secret, text), "content-type": "text/plain" })).status).toBe(415);
    const broken = Buffer.from('{"phone": ');
    expect((await post(fx.campaignId, broken, shopifyHeaders(fx.secret, broken))).status).toBe(400);
    const big = Buffer.from(JSON.stringify({ phone: "+13125550186", note: "x".repeat(70 * 1024) }));
    expect((await post(fx.campaignId, big, shopifyHeaders(fx.secret, big))).status).toBe(413);
    expect(await sent(fx.campaignId)).toHaveLength(0);
    expect((await log(fx, "outcome=rejected")).map((r) => r.status).sort()).toEqual([400, 413, 415]);
  });

  it("an API key presented still takes the key path", async () => {
    const fx = await signedCampaign("shopify");
    const response = await post(fx.campaignId, JSON.stringify({ phone: "+14155552671", token: "T1" }), { "content-type": "application/json", "x-api-key": fx.apiKey });
    expect(response.status).toBe(202);
    const [record] = await log(fx);
    expect(record).toMatchObject({ source: null, key: { id: fx.apiKeyId } });
  });

  it("an accepted delivery costs three statements: the source, the context with the rate limit, the insert", async () => {
    const fx = await signedCampaign("shopify");
    const recorded = await withCountingGetDb(async (statements) => {
      const response = await post(fx.campaignId, CHECKOUT, shopifyHeaders(fx.secret, CHECKOUT, "checkouts/create", "d-count"));
      expect(response.status).toBe(202);
      return [...statements];
    });
    // The request log's batched write and the dispatch the request starts are not the request's.
    const statements = recorded.filter((s) => !/for update skip locked|insert into trigger_requests/i.test(s));
    expect(statements, statements.join("\n")).toHaveLength(3);
    expect(statements[0]).toMatch(/from campaign_sources/);
    expect(statements.some((s) => /api_keys/.test(s))).toBe(false);
  });
});

describe("without a signed source", () => {
  it("no key → the same 401 as before, byte for byte, for a campaign never configured and one set to API keys", async () => {
    const plain = await createTriggerFixture();
    const apiKeyOnly = await signedCampaign("api_key");
    const bodies: string[] = [];
    for (const fx of [plain, apiKeyOnly]) {
      const response = await post(fx.campaignId, CHECKOUT, shopifyHeaders("x", CHECKOUT), { requestId: "same-request" });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="sendstream"/);
      bodies.push(await response.text());
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(await (await getDb()).select().from(triggerRequests).where(eq(triggerRequests.campaignId, apiKeyOnly.campaignId))).toHaveLength(0);
  });
});

describe("WooCommerce, Stripe and Standard Webhooks sources", () => {
  it("WooCommerce: the creation ping → 200 and a log row; a signed order → 202", async () => {
    const fx = await signedCampaign("woocommerce", ["order.created"], "wc-secret-123");
    const ping = await post(fx.campaignId, "webhook_id=17", { "content-type": "application/x-www-form-urlencoded" });
    expect(ping.status).toBe(200);
    expect(((await ping.json()) as { status: string }).status).toBe("ignored");
    const [record] = await log(fx);
    expect(record).toMatchObject({ status: 200, outcome: "ignored", messageCount: 0, source: { kind: "woocommerce" } });

    const raw = Buffer.from(JSON.stringify({ phone: "+13125550186", email: "a@example.com", token: "W1" }));
    const response = await post(fx.campaignId, raw, {
      "content-type": "application/json",
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-delivery-id": "wc-1",
      "x-wc-webhook-signature": createHmac("sha256", "wc-secret-123").update(raw).digest("base64"),
    });
    expect(response.status).toBe(202);
    expect(await sent(fx.campaignId)).toHaveLength(1);
  });

  it("Stripe: the event id dedupes, the type filters, an old timestamp is refused", async () => {
    const secret = "whsec_stripe0123456789";
    const fx = await signedCampaign("stripe", ["checkout.session.completed"], secret);
    const raw = Buffer.from(JSON.stringify({ id: "evt_1", type: "checkout.session.completed", phone: "+13125550186", token: "S1" }));
    const header = (t: number, body: Buffer) => ({
      "content-type": "application/json",
      "stripe-signature": `t=${t},v1=${createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex")}`,
    });
    expect((await post(fx.campaignId, raw, header(nowSeconds(), raw))).status).toBe(202);
    expect((await post(fx.campaignId, raw, header(nowSeconds(), raw))).status).toBe(202);
    expect(await sent(fx.campaignId)).toHaveLength(1);
    const expired = await post(fx.campaignId, raw, header(nowSeconds() - 600, raw));
    expect(expired.status).toBe(401);
    const other = Buffer.from(JSON.stringify({ id: "evt_2", type: "charge.refunded", phone: "+13125550186", token: "S1" }));
    const ignored = await post(fx.campaignId, other, header(nowSeconds(), other));
    expect(ignored.status).toBe(202);
    expect(((await ignored.json()) as { status: string }).status).toBe("ignored");
    expect(await sent(fx.campaignId)).toHaveLength(1);
  });

  it("Standard Webhooks: verified with the whsec_ key, deduped by webhook-id", async () => {
    const fx = await signedCampaign("standard_webhooks", [], "whsec_" + Buffer.alloc(24, 7).toString("base64"));
    const raw = Buffer.from(JSON.stringify({ type: "order.paid", phone: "+13125550186", token: "S1" }));
    const t = nowSeconds();
    const signature = createHmac("sha256", Buffer.alloc(24, 7)).update(`msg_1.${t}.`).update(raw).digest("base64");
    const headers = { "content-type": "application/json", "webhook-id": "msg_1", "webhook-timestamp": String(t), "webhook-signature": `v1,${signature}` };
    expect((await post(fx.campaignId, raw, headers)).status).toBe(202);
    expect((await post(fx.campaignId, raw, headers)).status).toBe(202);
    expect(await sent(fx.campaignId)).toHaveLength(1);
    const [record] = await log(fx);
    expect(record!.source).toEqual({ kind: "standard_webhooks", topic: "order.paid", deliveryId: "msg_1" });
  });
});

describe("each preset against its shop's documented sample body", () => {
  const EXPECTED_PHONE: Record<string, string> = {
    "shopify-orders-create": "+12125550147",
    "shopify-checkouts-create": "+13125550186",
    "shopify-orders-fulfilled": "+16135551199",
    "woocommerce-order-created": "+15125550148",
    "stripe-checkout-session-completed": "+15125550123",
  };

  function signedHeaders(preset: SourcePreset, secret: string, raw: Buffer): Record<string, string> {
    const base64 = createHmac("sha256", secret).update(raw).digest("base64");
    switch (preset.kind) {
      case "shopify":
        return { "content-type": "application/json", "x-shopify-topic": preset.topics[0]!, "x-shopify-webhook-id": preset.id, "x-shopify-hmac-sha256": base64 };
      case "woocommerce":
        return { "content-type": "application/json", "x-wc-webhook-topic": preset.topics[0]!, "x-wc-webhook-delivery-id": preset.id, "x-wc-webhook-signature": base64 };
      case "stripe": {
        const t = nowSeconds();
        return { "content-type": "application/json", "stripe-signature": `t=${t},v1=${createHmac("sha256", secret).update(`${t}.`).update(raw).digest("hex")}` };
      }
      default:
        throw new Error(`no preset signs as ${preset.kind}`);
    }
  }

  it.each(SOURCE_PRESETS.map((preset) => [preset.label, preset] as const))("%s: the sample, signed as the shop signs it, queues one message to the number its paths reach", async (_label, preset) => {
    const secret = preset.kind === "stripe" ? "whsec_preset0123456789" : "preset-secret-0123456789";
    // The order's number (Stripe: the amount) fills the template with no fallback: only a value read from the body renders.
    const orderAttribute = preset.trigger.fields.find((row) => !["first_name", "name"].includes(row.attribute))!.attribute;
    const messageConfig = { variables: ORDER_MESSAGE_CONFIG.variables.map((v) => (v.attribute === "order_id" ? { ...v, attribute: orderAttribute } : v)) };
    const fx = await createTriggerFixture({ status: "active", triggerConfig: { ...preset.trigger }, messageConfig });
    const db = await getDb();
    await putCampaignSource(db, { workspaceId: fx.workspaceId, campaignId: fx.campaignId, source: { kind: preset.kind, topics: preset.topics }, actor: SYSTEM_ACTOR });
    await setSourceSecret(db, { workspaceId: fx.workspaceId, campaignId: fx.campaignId, request: { secret, overlapHours: 0 }, actor: SYSTEM_ACTOR });
    const raw = sample(`${preset.id}.json`);

    const response = await post(fx.campaignId, raw, signedHeaders(preset, secret, raw));
    expect(response.status, await response.clone().text()).toBe(202);
    expect(await response.json()).toMatchObject({ status: "queued", phone: EXPECTED_PHONE[preset.id] });
    const [contact] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, fx.workspaceId), eq(contacts.phoneNumber, EXPECTED_PHONE[preset.id]!)));
    const saved: Record<string, unknown> = { name: contact?.name, ...(contact?.attributes as Record<string, unknown>) };
    expect(saved[orderAttribute], orderAttribute).not.toBeUndefined();
    for (const row of preset.trigger.fields.filter((f) => f.required)) expect(saved[row.attribute], row.attribute).not.toBeUndefined();
    expect(await sent(fx.campaignId)).toHaveLength(1);
  });
});
