// WhatsApp's daily messaging limit ("tier"): how many unique recipients a business phone number may
// start conversations with in a rolling 24 hours. Stored on `senders.messaging_tier`; null = unknown.
import type { ChannelName } from "@/lib/channels";

export const MESSAGING_TIERS = ["TIER_250", "TIER_2K", "TIER_10K", "TIER_100K", "TIER_UNLIMITED"] as const;
export type MessagingTier = (typeof MESSAGING_TIERS)[number];

/** Unique recipients per rolling 24 h; null = no limit. */
export const TIER_LIMITS: Record<MessagingTier, number | null> = {
  TIER_250: 250,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

/** The rolling window the limit counts over. */
export const TIER_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Reads Graph's `whatsapp_business_manager_messaging_limit` (or the older `messaging_limit_tier`):
 * `TIER_250`, `TIER_2K`, `TIER_10K`, `TIER_100K`, `TIER_UNLIMITED`, also older spellings such as
 * `TIER_1K`, `TIER_50` or `UNLIMITED`, in any case. Anything else is unknown (null).
 */
export function parseMessagingTier(value: string | null | undefined): MessagingTier | null {
  if (!value) return null;
  const text = value.trim().toUpperCase();
  if (text === "") return null;
  if (/UNLIMITED/.test(text)) return "TIER_UNLIMITED";
  const match = /^(?:TIER_)?(\d+)(K?)$/.exec(text);
  if (!match) return null;
  const count = Number(match[1]) * (match[2] ? 1000 : 1);
  // Older tiers (50, 1K) map to the next current tier at or below them, so the guard never overshoots.
  if (count >= 100_000) return "TIER_100K";
  if (count >= 10_000) return "TIER_10K";
  if (count >= 2_000) return "TIER_2K";
  if (count >= 250) return "TIER_250";
  return null;
}

export type TierLimit =
  /** A known tier: `limit` unique recipients per 24 h, or null for unlimited. */
  | { known: true; tier: MessagingTier; limit: number | null }
  /** Not reported yet (no Test connection, or an unrecognised value): the guard warns, never blocks. */
  | { known: false; tier: null; limit: null };

/** The limit of a stored tier; the sandbox has none. */
export function tierLimit(provider: ChannelName, stored: string | null | undefined): TierLimit {
  if (provider === "sandbox") return { known: true, tier: "TIER_UNLIMITED", limit: null };
  const tier = parseMessagingTier(stored);
  if (!tier) return { known: false, tier: null, limit: null };
  return { known: true, tier, limit: TIER_LIMITS[tier] };
}

/** Recipients that can still be reached now: the limit minus those messaged in the window (never below 0); null = no limit. */
export function availableUnderTier(limit: number | null, usedLast24h: number): number | null {
  if (limit === null) return null;
  return Math.max(0, limit - usedLast24h);
}
