// Who calls a trigger campaign's webhook and how the call proves it. No database imports: the UI reads this.
export const SOURCE_KINDS = ["api_key", "shopify", "woocommerce", "stripe", "standard_webhooks"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
