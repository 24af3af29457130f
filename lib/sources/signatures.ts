// Verifying a signed delivery: one pure function per kind over the raw bytes, the headers, the
// secrets that are valid now (the current one, and the previous one during a roll's overlap) and
// the time. Nothing is re-encoded: the MAC is taken over the bytes as received.
import { createHmac, timingSafeEqual } from "node:crypto";
import { signingKey } from "@/lib/event-webhooks/signing";
import { SIGNATURE_TOLERANCE_SECONDS, type SignedSourceKind } from "./kinds";

export interface SignedDeliveryInput {
  raw: Uint8Array;
  headers: Headers;
  /** Every secret that may have signed the delivery now, current first. */
  secrets: readonly string[];
  now: Date;
}

export type SignatureFailure = "missing_signature" | "signature_mismatch" | "timestamp_out_of_tolerance" | "no_secret";

export type Verification =
  | {
      ok: true;
      /** The sender's id of this delivery, the same on its retries (the idempotency key); null when it sends none. */
      deliveryId: string | null;
      topic: string | null;
      /** A WooCommerce creation ping (`webhook_id=N`, unsigned): answered 200, never triggers. */
      ping: boolean;
    }
  | { ok: false; reason: SignatureFailure; detail: string };

export const SIGNATURE_HEADERS: Record<SignedSourceKind, string> = {
  shopify: "X-Shopify-Hmac-Sha256",
  woocommerce: "X-WC-Webhook-Signature",
  stripe: "Stripe-Signature",
  standard_webhooks: "webhook-signature",
};

const MAX_ID_LENGTH = 255;

export function verifyDelivery(kind: SignedSourceKind, input: SignedDeliveryInput): Verification {
  // The ping comes when the webhook is created in the shop, which may be before its secret is set here.
  if (kind === "woocommerce" && isWooCommercePing(input)) return { ok: true, deliveryId: null, topic: null, ping: true };
  if (input.secrets.length === 0) return failure("no_secret", "This campaign's source has no signing secret yet; set one, then send again.");
  switch (kind) {
    case "shopify":
      return verifyBodyHmac(input, {
        signature: SIGNATURE_HEADERS.shopify,
        deliveryId: "x-shopify-webhook-id",
        topic: "x-shopify-topic",
        label: "Shopify",
      });
    case "woocommerce":
      return verifyBodyHmac(input, {
        signature: SIGNATURE_HEADERS.woocommerce,
        deliveryId: "x-wc-webhook-delivery-id",
        topic: "x-wc-webhook-topic",
        label: "WooCommerce",
      });
    case "stripe":
      return verifyStripe(input);
    case "standard_webhooks":
      return verifyStandardWebhooks(input);
  }
}

/** Shopify and WooCommerce: base64 HMAC-SHA256 of the raw body, the secret's UTF-8 bytes as key. */
export function bodyHmacBase64(secret: string, raw: Uint8Array): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("base64");
}

/** Stripe: hex HMAC-SHA256 of `<t>.<raw body>` with the whole `whsec_…` string as key. */
export function stripeSignatureHex(secret: string, timestamp: string, raw: Uint8Array): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestamp}.`).update(raw).digest("hex");
}

/** Standard Webhooks: base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>` under the secret's decoded key. */
export function standardWebhooksSignature(secret: string, id: string, timestamp: string, raw: Uint8Array): string {
  return createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.`).update(raw).digest("base64");
}

function verifyBodyHmac(
  input: SignedDeliveryInput,
  names: { signature: string; deliveryId: string; topic: string; label: string },
): Verification {
  const presented = input.headers.get(names.signature)?.trim();
  if (!presented) return failure("missing_signature", `The request has no ${names.signature} header: ${names.label} signs every delivery with it.`);
  const matches = input.secrets.some((secret) => safeEqual(presented, bodyHmacBase64(secret, input.raw)));
  if (!matches) return mismatch(`${names.signature} does not match the body under this source's secret.`);
  return { ok: true, deliveryId: headerValue(input.headers, names.deliveryId), topic: headerValue(input.headers, names.topic), ping: false };
}

function verifyStripe(input: SignedDeliveryInput): Verification {
  const header = input.headers.get("stripe-signature");
  if (!header) return failure("missing_signature", "The request has no Stripe-Signature header: Stripe signs every event with it.");
  let timestamp: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") timestamp = value;
    else if (key === "v1") v1.push(value);
  }
  if (timestamp === null || !/^\d{1,12}$/.test(timestamp) || v1.length === 0) {
    return failure("missing_signature", "The Stripe-Signature header needs a timestamp (t=…) and at least one v1 signature.");
  }
  if (!withinTolerance(timestamp, input.now)) return outOfTolerance();
  const matches = input.secrets.some((secret) => {
    const expected = stripeSignatureHex(secret, timestamp, input.raw);
    return v1.some((candidate) => safeEqual(candidate, expected));
  });
  if (!matches) return mismatch("No v1 signature in Stripe-Signature matches the body under this source's secret.");
  const event = bodyObject(input.raw);
  return { ok: true, deliveryId: boundedString(event?.id), topic: boundedString(event?.type), ping: false };
}

function verifyStandardWebhooks(input: SignedDeliveryInput): Verification {
  const id = input.headers.get("webhook-id");
  const timestamp = input.headers.get("webhook-timestamp");
  const header = input.headers.get("webhook-signature");
  if (!id || !timestamp || !header) {
    return failure("missing_signature", "A Standard Webhooks delivery carries webhook-id, webhook-timestamp and webhook-signature headers; one is missing.");
  }
  if (!/^\d{1,12}$/.test(timestamp)) return failure("missing_signature", "webhook-timestamp must be Unix seconds.");
  if (!withinTolerance(timestamp, input.now)) return outOfTolerance();
  const presented = header
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => entry.slice(3));
  const matches = input.secrets.some((secret) => {
    const expected = standardWebhooksSignature(secret, id, timestamp, input.raw);
    return presented.some((candidate) => safeEqual(candidate, expected));
  });
  if (!matches) return mismatch("No v1 signature in webhook-signature matches the body under this source's secret.");
  const event = bodyObject(input.raw);
  return { ok: true, deliveryId: id.slice(0, MAX_ID_LENGTH), topic: boundedString(event?.type), ping: false };
}

/**
 * WooCommerce pings a new webhook's URL once with an unsigned form body `webhook_id=<id>`. It is
 * answered 200 (else the shop reports the URL as failing) and does nothing else.
 */
export function isWooCommercePing(input: { raw: Uint8Array; headers: Headers }): boolean {
  if (input.headers.has("x-wc-webhook-signature") || input.raw.byteLength > 64) return false;
  const contentType = input.headers.get("content-type") ?? "";
  if (contentType !== "" && !/^application\/x-www-form-urlencoded\b/i.test(contentType)) return false;
  return /^webhook_id=\d{1,20}$/.test(Buffer.from(input.raw).toString("latin1").trim());
}

function withinTolerance(timestamp: string, now: Date): boolean {
  return Math.abs(now.getTime() / 1000 - Number(timestamp)) <= SIGNATURE_TOLERANCE_SECONDS;
}

function safeEqual(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

function headerValue(headers: Headers, name: string): string | null {
  const value = headers.get(name)?.trim();
  return value ? value.slice(0, MAX_ID_LENGTH) : null;
}

function boundedString(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_ID_LENGTH) : null;
}

/** The body as an object, for the fields the signature scheme names (Stripe's event id and type). */
function bodyObject(raw: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function failure(reason: SignatureFailure, detail: string): Verification {
  return { ok: false, reason, detail };
}

function mismatch(detail: string): Verification {
  return failure("signature_mismatch", `${detail} Check that the secret matches the shop's, and that nothing re-encodes the body on the way.`);
}

function outOfTolerance(): Verification {
  return failure(
    "timestamp_out_of_tolerance",
    `The signed timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS / 60} minutes from now: the delivery is refused as a possible replay. Check the sender's clock.`,
  );
}
