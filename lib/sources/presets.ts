// Ready mappings for the shops people run: which topic to take, where the phone number and the
// usual attributes sit in that shop's body, and where in the shop's admin the URL goes.
import type { FieldType, TriggerConfig } from "@/lib/campaigns/schemas";
import type { SourceKind } from "./kinds";
import shopifyCheckoutsCreate from "./samples/shopify-checkouts-create.json";
import shopifyOrdersCreate from "./samples/shopify-orders-create.json";
import shopifyOrdersFulfilled from "./samples/shopify-orders-fulfilled.json";
import stripeCheckoutSessionCompleted from "./samples/stripe-checkout-session-completed.json";
import woocommerceOrderCreated from "./samples/woocommerce-order-created.json";

/** The part of a trigger configuration a preset fills (the shape of `TriggerConfig` with nested paths). */
export type PresetTrigger = Pick<TriggerConfig, "phoneField" | "phoneFallbacks" | "countryField" | "fields">;

export interface SourcePreset {
  id: string;
  label: string;
  kind: SourceKind;
  topics: string[];
  trigger: PresetTrigger;
  /** The sample body, as the shop documents it. */
  sample: unknown;
  /** The topic header the shop sends with this event (Shopify, WooCommerce); Stripe names it in the body. */
  topicHeaderValue?: string;
  /** Where to paste the URL in the shop's admin, one step per entry. */
  steps: string[];
}

const optional = (attribute: string, field: string, fallbacks: string[] = [], type: FieldType = "string") => ({
  field,
  fallbacks,
  attribute,
  type,
  required: false,
});

// Shopify puts the number on the customer, the addresses or (when the buyer chose it at checkout) the order itself.
const SHOPIFY_PHONE = { phoneField: "customer.phone", phoneFallbacks: ["shipping_address.phone", "billing_address.phone", "phone"] };
const SHOPIFY_FIRST_NAME = optional("first_name", "customer.first_name", ["shipping_address.first_name", "billing_address.first_name"]);
const SHOPIFY_TOTAL = [optional("order_total", "total_price"), optional("currency", "currency")];

function shopifySteps(event: string): string[] {
  return [
    "In your Shopify admin, open Settings → Notifications and choose Webhooks.",
    "Click Create webhook.",
    `Event: ${event}. Format: JSON. Webhook API version: the newest listed.`,
    "URL: paste the trigger URL shown here, then save.",
    "Below the list of webhooks Shopify shows the key your webhooks are signed with (“Your webhooks will be signed with …”). Copy it and choose “Paste the shop's secret” here.",
    "Back in Shopify, use Send test notification on the new webhook: the call appears on this campaign's Requests tab.",
  ];
}

export const SOURCE_PRESETS: readonly SourcePreset[] = [
  {
    id: "shopify-orders-create",
    label: "Shopify: order created",
    kind: "shopify",
    topics: ["orders/create"],
    topicHeaderValue: "orders/create",
    trigger: {
      ...SHOPIFY_PHONE,
      countryField: "shipping_address.country_code",
      fields: [SHOPIFY_FIRST_NAME, optional("order_number", "name", ["order_number"]), ...SHOPIFY_TOTAL],
    },
    sample: shopifyOrdersCreate,
    steps: shopifySteps("Order creation"),
  },
  {
    id: "shopify-checkouts-create",
    label: "Shopify: abandoned checkout",
    kind: "shopify",
    topics: ["checkouts/create"],
    topicHeaderValue: "checkouts/create",
    trigger: {
      ...SHOPIFY_PHONE,
      countryField: "shipping_address.country_code",
      fields: [SHOPIFY_FIRST_NAME, optional("checkout_url", "abandoned_checkout_url"), ...SHOPIFY_TOTAL],
    },
    sample: shopifyCheckoutsCreate,
    steps: shopifySteps("Checkout creation"),
  },
  {
    id: "shopify-orders-fulfilled",
    label: "Shopify: order fulfilled",
    kind: "shopify",
    topics: ["orders/fulfilled"],
    topicHeaderValue: "orders/fulfilled",
    trigger: {
      ...SHOPIFY_PHONE,
      countryField: "shipping_address.country_code",
      fields: [
        SHOPIFY_FIRST_NAME,
        optional("order_number", "name", ["order_number"]),
        optional("tracking_url", "fulfillments[0].tracking_url", ["fulfillments[0].tracking_urls[0]"]),
        ...SHOPIFY_TOTAL,
      ],
    },
    sample: shopifyOrdersFulfilled,
    steps: shopifySteps("Order fulfillment"),
  },
  {
    id: "woocommerce-order-created",
    label: "WooCommerce: order created",
    kind: "woocommerce",
    topics: ["order.created"],
    topicHeaderValue: "order.created",
    trigger: {
      phoneField: "billing.phone",
      phoneFallbacks: ["shipping.phone"],
      countryField: "billing.country",
      fields: [
        optional("first_name", "billing.first_name", ["shipping.first_name"]),
        optional("order_number", "number", ["id"]),
        optional("order_total", "total"),
        optional("currency", "currency"),
      ],
    },
    sample: woocommerceOrderCreated,
    steps: [
      "In your WordPress admin, open WooCommerce → Settings → Advanced → Webhooks.",
      "Click Add webhook (Create a new webhook when the list is empty).",
      "Name: anything you recognise, e.g. Sendstream. Status: Active. Topic: Order created.",
      "Delivery URL: paste the trigger URL shown here.",
      "Secret: paste the secret generated here (or copy the one WooCommerce filled in and choose “Paste the shop's secret” here).",
      "API Version: WP REST API Integration v3. Save webhook.",
      "WooCommerce calls the URL once right away to check it: that ping appears on this campaign's Requests tab and sends nothing.",
    ],
  },
  {
    id: "stripe-checkout-session-completed",
    label: "Stripe: checkout completed",
    kind: "stripe",
    topics: ["checkout.session.completed"],
    trigger: {
      phoneField: "data.object.customer_details.phone",
      phoneFallbacks: [],
      countryField: "data.object.customer_details.address.country",
      fields: [
        optional("name", "data.object.customer_details.name"),
        optional("amount_total", "data.object.amount_total", [], "number"),
        optional("currency", "data.object.currency"),
      ],
    },
    sample: stripeCheckoutSessionCompleted,
    steps: [
      "Stripe asks for a phone number only when the Checkout Session collects one: turn on phone number collection for it.",
      "In the Stripe Dashboard, open Developers → Webhooks and click Add endpoint (in Workbench: Webhooks → Create an event destination, then Webhook endpoint).",
      "Events: choose checkout.session.completed.",
      "Endpoint URL: paste the trigger URL shown here and save.",
      "On the endpoint's page, under Signing secret, click Reveal and copy the whsec_… value. Choose “Paste the shop's secret” here and paste it.",
      "Stripe sends amounts in the currency's smallest unit: amount_total 4900 with currency usd is 49.00 USD.",
    ],
  },
];

export function findPreset(id: string): SourcePreset | undefined {
  return SOURCE_PRESETS.find((preset) => preset.id === id);
}

/** The shop's steps for a kind without a preset chosen. */
export const KIND_STEPS: Record<SourceKind, string[]> = {
  api_key: [
    "Create a key in Settings → API Keys.",
    "Send a POST with a JSON body to the trigger URL, with the key in the x-api-key header (or Authorization: Bearer).",
  ],
  shopify: shopifySteps("the event you want, e.g. Order creation"),
  woocommerce: SOURCE_PRESETS.find((preset) => preset.kind === "woocommerce")!.steps,
  stripe: SOURCE_PRESETS.find((preset) => preset.kind === "stripe")!.steps.slice(1, 5),
  standard_webhooks: [
    "In the sending system, add an endpoint with the trigger URL shown here.",
    "Generate a secret here (whsec_…) and paste it there, or paste the secret it shows you with “Paste the shop's secret”.",
    "Each call carries webhook-id, webhook-timestamp and webhook-signature; the event's type is read from the body's type field.",
  ],
};
