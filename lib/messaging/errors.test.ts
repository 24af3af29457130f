import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, retryDelayMs } from "./errors";

describe("retryDelayMs", () => {
  it("is full jitter under an exponential ceiling, with a floor", () => {
    expect(retryDelayMs(1, {}, () => 0.999)).toBeLessThan(BACKOFF_BASE_MS);
    expect(retryDelayMs(3, {}, () => 0.999)).toBeGreaterThan(BACKOFF_BASE_MS * 3);
    expect(retryDelayMs(3, {}, () => 0.999)).toBeLessThan(BACKOFF_BASE_MS * 4);
    expect(retryDelayMs(30, {}, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect(retryDelayMs(1, { minDelayMs: 6_000 }, () => 0)).toBe(6_000);
    expect(retryDelayMs(1, {}, () => 0)).toBeGreaterThan(0);
  });

  it("spreads retries out (jitter)", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(4, {})));
    expect(delays.size).toBeGreaterThan(40);
  });
});
