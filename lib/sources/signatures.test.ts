import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIGNATURE_TOLERANCE_SECONDS } from "./kinds";
import { isWooCommercePing, verifyDelivery } from "./signatures";

const sample = (name: string) => readFileSync(path.join(__dirname, "samples", name));
const now = new Date("2026-11-26T12:00:00Z");
const nowSeconds = Math.floor(now.getTime() / 1000);
const bytes = (text: string | Buffer) => new Uint8Array(Buffer.from(text));
/** The same JSON, re-serialised without the sender's whitespace: different bytes, same value. */
const reencoded = (raw: Buffer) => bytes(JSON.stringify(JSON.parse(raw.toString("utf8"))));

// Vectors computed here, independently of the code under test.
const shopifyMac = (secret: string, raw: Uint8Array) => createHmac("sha256", secret).update(raw).digest("base64");
const stripeHeader = (secret: string, t: number, raw: Uint8Array, extra: string[] = []) =>
  [`t=${t}`, ...extra, `v1=${createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${t}.`), raw])).digest("hex")}`].join(",");
const standardSignature = (secret: string, id: string, t: number, raw: Uint8Array) =>
  `v1,${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(Buffer.concat([Buffer.from(`${id}.${t}.`), raw])).digest("base64")}`;

describe("Shopify", () => {
  const secret = "shpss_" + randomBytes(16).toString("hex");
  const raw = sample("shopify-orders-create.json");
  const headers = (mac: string | null) =>
    new Headers({
      "content-type": "application/json",
      "x-shopify-topic": "orders/create",
      "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
      ...(mac === null ? {} : { "x-shopify-hmac-sha256": mac }),
    });

  it("verifies the sample body and reads the delivery id and topic", () => {
    const result = verifyDelivery("shopify", { raw: bytes(raw), headers: headers(shopifyMac(secret, raw)), secrets: [secret], now });
    expect(result).toEqual({ ok: true, deliveryId: "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043", topic: "orders/create", ping: false });
  });

  it("refuses a tampered body, a re-encoded body, a missing header and another secret", () => {
    const mac = shopifyMac(secret, raw);
    const tampered = bytes(raw.toString("utf8").replace('"403.00"', '"0.01"'));
    expect(verifyDelivery("shopify", { raw: tampered, headers: headers(mac), secrets: [secret], now })).toMatchObject({ ok: false, reason: "signature_mismatch" });
    expect(verifyDelivery("shopify", { raw: reencoded(raw), headers: headers(mac), secrets: [secret], now })).toMatchObject({ ok: false, reason: "signature_mismatch" });
    expect(verifyDelivery("shopify", { raw: bytes(raw), headers: headers(null), secrets: [secret], now })).toMatchObject({ ok: false, reason: "missing_signature" });
    expect(verifyDelivery("shopify", { raw: bytes(raw), headers: headers(mac), secrets: ["another-secret"], now })).toMatchObject({ ok: false, reason: "signature_mismatch" });
    expect(verifyDelivery("shopify", { raw: bytes(raw), headers: headers(mac), secrets: [], now })).toMatchObject({ ok: false, reason: "no_secret" });
  });

  it("accepts the previous secret during a roll's overlap", () => {
    const previous = "old-secret-123";
    const result = verifyDelivery("shopify", { raw: bytes(raw), headers: headers(shopifyMac(previous, raw)), secrets: ["new-secret-456", previous], now });
    expect(result.ok).toBe(true);
  });
});

describe("WooCommerce", () => {
  const secret = "wc secret with spaces & symbols";
  const raw = sample("woocommerce-order-created.json");
  const headers = (mac: string | null) =>
    new Headers({
      "content-type": "application/json",
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-delivery-id": "36e520ebabc2fa725092ff4a47acedf2",
      ...(mac === null ? {} : { "x-wc-webhook-signature": mac }),
    });

  it("verifies the sample body", () => {
    expect(verifyDelivery("woocommerce", { raw: bytes(raw), headers: headers(shopifyMac(secret, raw)), secrets: [secret], now })).toEqual({
      ok: true,
      deliveryId: "36e520ebabc2fa725092ff4a47acedf2",
      topic: "order.created",
      ping: false,
    });
  });

  it("refuses a re-encoded body and an unsigned JSON body", () => {
    expect(verifyDelivery("woocommerce", { raw: reencoded(raw), headers: headers(shopifyMac(secret, raw)), secrets: [secret], now }).ok).toBe(false);
    expect(verifyDelivery("woocommerce", { raw: bytes(raw), headers: headers(null), secrets: [secret], now })).toMatchObject({ ok: false, reason: "missing_signature" });
  });

  it("recognises the creation ping, and nothing else, as a ping", () => {
    const form = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    expect(verifyDelivery("woocommerce", { raw: bytes("webhook_id=42"), headers: form, secrets: [secret], now })).toEqual({ ok: true, deliveryId: null, topic: null, ping: true });
    expect(isWooCommercePing({ raw: bytes("webhook_id=42&x=1"), headers: form })).toBe(false);
    expect(isWooCommercePing({ raw: bytes('{"webhook_id":42}'), headers: new Headers({ "content-type": "application/json" }) })).toBe(false);
    expect(verifyDelivery("woocommerce", { raw: bytes("webhook_id=abc"), headers: form, secrets: [secret], now }).ok).toBe(false);
    // The ping can come before the secret is set here.
    expect(verifyDelivery("woocommerce", { raw: bytes("webhook_id=42"), headers: form, secrets: [], now })).toMatchObject({ ok: true, ping: true });
  });
});

describe("Stripe", () => {
  const secret = "whsec_" + randomBytes(24).toString("base64");
  const raw = sample("stripe-checkout-session-completed.json");
  const headers = (signature: string | null) => new Headers({ "content-type": "application/json; charset=utf-8", ...(signature ? { "stripe-signature": signature } : {}) });

  it("verifies the sample event and reads its id and type", () => {
    expect(verifyDelivery("stripe", { raw: bytes(raw), headers: headers(stripeHeader(secret, nowSeconds, raw)), secrets: [secret], now })).toEqual({
      ok: true,
      deliveryId: "evt_1SgQv2LkdIwHu7ixQ3bC9mXa",
      topic: "checkout.session.completed",
      ping: false,
    });
  });

  it("takes any v1 of the header (Stripe signs with both secrets while one rolls)", () => {
    const header = stripeHeader(secret, nowSeconds, raw, ["v1=" + "0".repeat(64), "v0=ignored"]);
    expect(verifyDelivery("stripe", { raw: bytes(raw), headers: headers(header), secrets: [secret], now }).ok).toBe(true);
  });

  it("accepts timestamps within 5 minutes either way and refuses older or newer ones", () => {
    const at = (t: number) => verifyDelivery("stripe", { raw: bytes(raw), headers: headers(stripeHeader(secret, t, raw)), secrets: [secret], now });
    expect(at(nowSeconds - SIGNATURE_TOLERANCE_SECONDS).ok).toBe(true);
    expect(at(nowSeconds + SIGNATURE_TOLERANCE_SECONDS).ok).toBe(true);
    expect(at(nowSeconds - SIGNATURE_TOLERANCE_SECONDS - 1)).toMatchObject({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(at(nowSeconds + SIGNATURE_TOLERANCE_SECONDS + 1)).toMatchObject({ ok: false, reason: "timestamp_out_of_tolerance" });
  });

  it("refuses a re-encoded body, a forged timestamp and malformed headers", () => {
    const header = stripeHeader(secret, nowSeconds, raw);
    expect(verifyDelivery("stripe", { raw: reencoded(raw), headers: headers(header), secrets: [secret], now })).toMatchObject({ ok: false, reason: "signature_mismatch" });
    const forged = header.replace(`t=${nowSeconds}`, `t=${nowSeconds + 1}`);
    expect(verifyDelivery("stripe", { raw: bytes(raw), headers: headers(forged), secrets: [secret], now })).toMatchObject({ ok: false, reason: "signature_mismatch" });
    for (const bad of [null, "v1=abc", `t=${nowSeconds}`, "garbage"]) {
      expect(verifyDelivery("stripe", { raw: bytes(raw), headers: headers(bad), secrets: [secret], now })).toMatchObject({ ok: false, reason: "missing_signature" });
    }
  });
});

describe("Standard Webhooks", () => {
  const secret = "whsec_" + randomBytes(24).toString("base64");
  const raw = Buffer.from('{"type":"order.paid","data":{"phone":"+15125550123"}}');
  const headers = (id: string, t: number, signature: string | null) =>
    new Headers({ "webhook-id": id, "webhook-timestamp": String(t), ...(signature ? { "webhook-signature": signature } : {}) });

  it("verifies a delivery and reads its id and the body's type", () => {
    const signature = `v1,${"A".repeat(44)} ${standardSignature(secret, "msg_1", nowSeconds, raw)}`;
    expect(verifyDelivery("standard_webhooks", { raw: bytes(raw), headers: headers("msg_1", nowSeconds, signature), secrets: [secret], now })).toEqual({
      ok: true,
      deliveryId: "msg_1",
      topic: "order.paid",
      ping: false,
    });
  });

  it("refuses another id, an old timestamp, a re-encoded body and a missing header", () => {
    const signature = standardSignature(secret, "msg_1", nowSeconds, raw);
    expect(verifyDelivery("standard_webhooks", { raw: bytes(raw), headers: headers("msg_2", nowSeconds, signature), secrets: [secret], now }).ok).toBe(false);
    const old = standardSignature(secret, "msg_1", nowSeconds - 301, raw);
    expect(verifyDelivery("standard_webhooks", { raw: bytes(raw), headers: headers("msg_1", nowSeconds - 301, old), secrets: [secret], now })).toMatchObject({
      reason: "timestamp_out_of_tolerance",
    });
    const spaced = bytes('{ "type": "order.paid", "data": { "phone": "+15125550123" } }');
    expect(verifyDelivery("standard_webhooks", { raw: spaced, headers: headers("msg_1", nowSeconds, signature), secrets: [secret], now }).ok).toBe(false);
    expect(verifyDelivery("standard_webhooks", { raw: bytes(raw), headers: headers("msg_1", nowSeconds, null), secrets: [secret], now })).toMatchObject({
      reason: "missing_signature",
    });
  });

  it("verifies what our own event webhooks sign", async () => {
    const { signedHeaders, generateSigningSecret } = await import("@/lib/event-webhooks/signing");
    const own = generateSigningSecret();
    const body = '{"type":"message.sent"}';
    const result = verifyDelivery("standard_webhooks", {
      raw: bytes(body),
      headers: new Headers(signedHeaders(own, { id: "evt_1", timestamp: nowSeconds, body })),
      secrets: [own],
      now,
    });
    expect(result).toMatchObject({ ok: true, deliveryId: "evt_1", topic: "message.sent" });
  });
});

describe("samples", () => {
  it.each(["shopify-orders-create.json", "shopify-checkouts-create.json", "shopify-orders-fulfilled.json"])("%s verifies as Shopify signs it", (name) => {
    const raw = sample(name);
    const secret = randomBytes(16).toString("hex");
    const result = verifyDelivery("shopify", {
      raw: bytes(raw),
      headers: new Headers({ "x-shopify-hmac-sha256": shopifyMac(secret, raw), "x-shopify-topic": "orders/create" }),
      secrets: [secret],
      now,
    });
    expect(result.ok).toBe(true);
  });
});
