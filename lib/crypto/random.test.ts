import { describe, expect, it } from "vitest";
import { BASE62, newId, randomBase62 } from "./random";

describe("randomBase62", () => {
  it("returns the requested length from the base62 alphabet", () => {
    for (const length of [1, 6, 22, 32, 100]) {
      expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
    }
  });

  it("spreads characters evenly (chi-square over 62 buckets)", () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = sample.length / 62;
    const chiSquare = [...BASE62].reduce((sum, char) => sum + ((counts.get(char) ?? 0) - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: p = 1e-6 at about 129 (at p = 0.001 this test would fail one run in a
    // thousand by chance alone); a modulo bias would give several hundred.
    expect(chiSquare).toBeLessThan(129);
  });
});

describe("newId", () => {
  it("prefixes and never repeats", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId("cmp")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^cmp_[0-9A-Za-z]{22}$/);
  });
});
