// How callers of a trigger campaign authenticate (contract B). No database imports: the UI uses it.

export const SOURCE_KINDS = ["api_key", "shopify", "woocommerce", "stripe", "standard_webhooks"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** The kinds that sign their deliveries (everything but the API key). */
export type SignedSourceKind = Exclude<SourceKind, "api_key">;
export const SIGNED_SOURCE_KINDS = SOURCE_KINDS.filter((kind): kind is SignedSourceKind => kind !== "api_key");

export const isSignedSourceKind = (kind: string): kind is SignedSourceKind => (SIGNED_SOURCE_KINDS as readonly string[]).includes(kind);

export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  api_key: "API key",
  shopify: "Shopify",
  woocommerce: "WooCommerce",
  stripe: "Stripe",
  standard_webhooks: "Standard Webhooks",
};

/** Where each kind names the topic of a delivery (shown in the request log, filtered by `topics`). */
export const TOPIC_SOURCE: Record<SignedSourceKind, string> = {
  shopify: "X-Shopify-Topic header",
  woocommerce: "X-WC-Webhook-Topic header",
  stripe: "the event's type",
  standard_webhooks: "the body's type",
};

/** Seconds a signed timestamp may be off from now, either way (Stripe, Standard Webhooks). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** How long a delivery id answers with its first response. */
export const DELIVERY_WINDOW_HOURS = 72;
export const MAX_TOPICS = 20;
export const MAX_TOPIC_LENGTH = 100;
export const MIN_SECRET_LENGTH = 8;
export const MAX_SECRET_LENGTH = 256;
export const DEFAULT_OVERLAP_HOURS = 24;
export const MAX_OVERLAP_HOURS = 72;

/** A campaign's source as the API shows it. */
export interface CampaignSource {
  kind: SourceKind;
  /** Empty: every topic. Shopify/WooCommerce: the topic header; Stripe/Standard Webhooks: the body's `type`. */
  topics: string[];
  secret: { set: boolean; last4: string | null; createdAt: string | null; previousExpiresAt: string | null };
  /** The trigger URL: the same as with an API key, with no key in it. */
  url: string;
}
