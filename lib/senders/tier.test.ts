import { describe, expect, it } from "vitest";
import { availableUnderTier, parseMessagingTier, tierLimit } from "./tier";

describe("parseMessagingTier", () => {
  it("reads Graph's current tier names in any case", () => {
    expect(parseMessagingTier("TIER_250")).toBe("TIER_250");
    expect(parseMessagingTier("tier_2k")).toBe("TIER_2K");
    expect(parseMessagingTier(" TIER_10K ")).toBe("TIER_10K");
    expect(parseMessagingTier("TIER_100K")).toBe("TIER_100K");
    expect(parseMessagingTier("TIER_UNLIMITED")).toBe("TIER_UNLIMITED");
    expect(parseMessagingTier("UNLIMITED")).toBe("TIER_UNLIMITED");
  });

  it("maps older tiers to the current tier at or below them, and unknown values to null", () => {
    expect(parseMessagingTier("TIER_1K")).toBe("TIER_250");
    expect(parseMessagingTier("TIER_50")).toBeNull();
    expect(parseMessagingTier("")).toBeNull();
    expect(parseMessagingTier(null)).toBeNull();
    expect(parseMessagingTier("TIER_SOMETHING")).toBeNull();
  });
});

describe("tierLimit", () => {
  it("gives the sandbox no limit, an unknown tier no known limit, and known tiers their count", () => {
    expect(tierLimit("sandbox", null)).toEqual({ known: true, tier: "TIER_UNLIMITED", limit: null });
    expect(tierLimit("whatsapp", null)).toEqual({ known: false, tier: null, limit: null });
    expect(tierLimit("whatsapp", "TIER_2K")).toEqual({ known: true, tier: "TIER_2K", limit: 2000 });
    expect(tierLimit("whatsapp", "TIER_UNLIMITED")).toEqual({ known: true, tier: "TIER_UNLIMITED", limit: null });
  });

  it("subtracts the recipients of the last 24 h, never below zero", () => {
    expect(availableUnderTier(250, 100)).toBe(150);
    expect(availableUnderTier(250, 300)).toBe(0);
    expect(availableUnderTier(null, 10_000)).toBeNull();
  });
});
