import { describe, expect, it } from "vitest";
import { BASE62 } from "@/lib/crypto/random";
import {
  API_KEY_LENGTH,
  API_KEY_PATTERN,
  apiKeyChecksum,
  displayApiKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "./format";

describe("API key format", () => {
  const keys = Array.from({ length: 10_000 }, generateApiKey);

  it("generates 10k distinct keys that all match the pattern and their checksum", () => {
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("spreads the random characters evenly over the 62 symbols (chi-square)", () => {
    const counts = new Map<string, number>();
    for (const key of keys) for (const char of key.slice(3, 35)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (keys.length * 32) / 62;
    const chiSquare = [...BASE62].reduce((sum, char) => sum + ((counts.get(char) ?? 0) - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: mean 61, p = 1e-6 at about 125. A `byte % 62` bias scores in the thousands.
    expect(chiSquare).toBeLessThan(125);
  });

  it("gives every position an even spread too (no fixed or skewed position)", () => {
    for (let position = 3; position < 35; position++) {
      const distinct = new Set(keys.map((key) => key[position]));
      expect(distinct.size).toBe(62);
    }
  });

  it("rejects every single-character change to a key", () => {
    for (const key of keys.slice(0, 300)) {
      const position = 3 + Math.floor(Math.random() * 38);
      const original = key[position]!;
      const replacement = BASE62[(BASE62.indexOf(original) + 1 + Math.floor(Math.random() * 61)) % 62]!;
      const mutated = key.slice(0, position) + replacement + key.slice(position + 1);
      expect(isWellFormedApiKey(mutated)).toBe(false);
    }
  });

  it("encodes the CRC32 of the random part as 6 base62 characters", () => {
    expect(apiKeyChecksum("")).toBe("000000");
    // The standard CRC32 check value: CRC32("123456789") = 0xCBF43926.
    const checksum = apiKeyChecksum("123456789");
    const decoded = [...checksum].reduce((n, char) => n * 62 + BASE62.indexOf(char), 0);
    expect(decoded).toBe(0xcbf43926);
    expect(checksum).toHaveLength(6);
  });

  it("rejects malformed values", () => {
    const key = generateApiKey();
    const malformed = [
      "",
      "ss_",
      key.slice(0, -1),
      `${key}a`,
      `SS_${key.slice(3)}`,
      `sk_${key.slice(3)}`,
      ` ${key}`,
      `${key} `,
      `${key}\n`,
      `${key.slice(0, 10)}\u0000${key.slice(11)}`,
      `${key.slice(0, 10)}а${key.slice(11)}`, // Cyrillic "а"
      `ss_${"-".repeat(38)}`,
      `ss_${"A".repeat(8192)}`,
      "' OR 1=1 --",
      hashApiKey(key),
      displayApiKey(key),
    ];
    for (const value of malformed) expect(isWellFormedApiKey(value), JSON.stringify(value.slice(0, 60))).toBe(false);
  });

  it("hashes with SHA-256 hex and displays only the prefix, 4 leading and 4 trailing characters", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayApiKey(key)).toBe(`ss_${key.slice(3, 7)}…${key.slice(-4)}`);
  });
});
