// Whether a template's copy reads as promotional: WhatsApp files offers, sales and discounts under
// MARKETING, and a UTILITY or AUTHENTICATION template carrying them risks being re-categorised or
// paused. One word list, deliberately short; a match warns, it never blocks.
import { findComponent } from "./types";

/** Words and patterns that make copy promotional (matched case-insensitively, as whole words). */
export const PROMOTIONAL_WORDS = [
  "sale",
  "discount",
  "offer",
  "promo",
  "promotion",
  "coupon",
  "deal",
  "% off",
  "free shipping",
  "limited time",
  "buy now",
  "shop now",
  "black friday",
  "new collection",
] as const;

const PATTERN = new RegExp(`(?<![\\p{L}])(${PROMOTIONAL_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})s?(?![\\p{L}\\p{N}])`, "iu");

/** The first promotional word the text contains, or null. */
export function promotionalWord(text: string): string | null {
  return PATTERN.exec(text)?.[1]?.toLowerCase() ?? null;
}

/** The promotional word a non-marketing template's header or body carries; null for a marketing template or plain copy. */
export function promotionalCopyInNonMarketing(template: { category?: string | null; components: unknown[] }): string | null {
  if (!template.category || template.category.toUpperCase() === "MARKETING") return null;
  const text = ["HEADER", "BODY"].map((type) => findComponent(template.components, type as "HEADER" | "BODY")?.text ?? "").join("\n");
  return promotionalWord(text);
}
