// What each source checks on a call, in words for the API docs, with a test command per source.
import type { SourceKind } from "./kinds";
import { SOURCE_PRESETS } from "./presets";
import { signedTestCommand } from "./test-command";

export const IDEMPOTENCY_WINDOW_HOURS = 72;
export const SIGNATURE_TOLERANCE_MINUTES = 5;

export interface SourceGuide {
  kind: SourceKind;
  title: string;
  /** What is checked, one line per header or rule (inline code in backticks). */
  checks: string[];
  idempotency: string;
  tolerance: string;
  topic: string;
  command: string;
}

const sample = (kind: SourceKind) => JSON.stringify(SOURCE_PRESETS.find((preset) => preset.kind === kind)?.sample ?? {});

/** One guide per source kind, its test command posting to `triggerUrl`. */
export function sourceGuides(triggerUrl: string): SourceGuide[] {
  const standardBody = JSON.stringify({ type: "order.created", timestamp: "2026-11-20T10:42:07Z", data: { phone: "+14155552671", first_name: "Maria" } });
  return [
    {
      kind: "api_key",
      title: "API key (default)",
      checks: ["`x-api-key: ss_…` or `Authorization: Bearer ss_…`, a key of the campaign's workspace."],
      idempotency: "`Idempotency-Key` header when you send one.",
      tolerance: "None: the key authenticates every call.",
      topic: "None: every call is taken.",
      command: signedTestCommand({ kind: "api_key", url: triggerUrl, body: JSON.stringify({ phone: "+14155552671", first_name: "Maria" }) }),
    },
    {
      kind: "shopify",
      title: "Shopify",
      checks: [
        "`X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body, keyed with the webhook signing secret.",
        "`X-Shopify-Topic`, e.g. `orders/create`, shown in the request log and matched against the campaign's topics.",
      ],
      idempotency: `\`X-Shopify-Webhook-Id\`: Shopify's retries of one delivery get the first answer again for ${IDEMPOTENCY_WINDOW_HOURS} hours and send once.`,
      tolerance: "No timestamp is signed; a replay is caught by its delivery id.",
      topic: "`X-Shopify-Topic` header.",
      command: signedTestCommand({ kind: "shopify", url: triggerUrl, body: sample("shopify"), topic: "orders/create" }),
    },
    {
      kind: "woocommerce",
      title: "WooCommerce",
      checks: [
        "`X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body, keyed with the webhook's secret.",
        "The creation ping (a form body `webhook_id=…`) is answered 200 and logged; it sends nothing.",
      ],
      idempotency: `\`X-WC-Webhook-Delivery-ID\` for ${IDEMPOTENCY_WINDOW_HOURS} hours.`,
      tolerance: "No timestamp is signed; a replay is caught by its delivery id.",
      topic: "`X-WC-Webhook-Topic` header, e.g. `order.created`.",
      command: signedTestCommand({ kind: "woocommerce", url: triggerUrl, body: sample("woocommerce"), topic: "order.created" }),
    },
    {
      kind: "stripe",
      title: "Stripe",
      checks: [
        "`Stripe-Signature: t=…,v1=…`: hex HMAC-SHA256 of `t` + `.` + the raw body, keyed with the endpoint's `whsec_…` secret. Any of several `v1` values may match (while Stripe rolls its secret).",
      ],
      idempotency: `The event's \`id\` in the body for ${IDEMPOTENCY_WINDOW_HOURS} hours.`,
      tolerance: `\`t\` at most ${SIGNATURE_TOLERANCE_MINUTES} minutes from the server's clock; older calls are refused.`,
      topic: "The body's `type`, e.g. `checkout.session.completed`.",
      command: signedTestCommand({ kind: "stripe", url: triggerUrl, body: sample("stripe") }),
    },
    {
      kind: "standard_webhooks",
      title: "Standard Webhooks",
      checks: [
        "`webhook-signature: v1,…`: base64 HMAC-SHA256 of `webhook-id` + `.` + `webhook-timestamp` + `.` + the raw body, keyed with the base64-decoded part of `whsec_…`.",
        "`webhook-id` and `webhook-timestamp` are required.",
      ],
      idempotency: `\`webhook-id\` for ${IDEMPOTENCY_WINDOW_HOURS} hours.`,
      tolerance: `\`webhook-timestamp\` at most ${SIGNATURE_TOLERANCE_MINUTES} minutes from the server's clock.`,
      topic: "The body's `type`.",
      command: signedTestCommand({ kind: "standard_webhooks", url: triggerUrl, body: standardBody }),
    },
  ];
}
