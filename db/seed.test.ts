import { describe, expect, it } from "vitest";
import { seedsOnStart } from "./seed";

describe("seedsOnStart", () => {
  it("seeds the embedded database under next dev only", () => {
    expect(seedsOnStart({ NODE_ENV: "development" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "production" })).toBe(false);
    expect(seedsOnStart({ NODE_ENV: "test" })).toBe(false);
    expect(seedsOnStart({})).toBe(false);
    expect(seedsOnStart({ NODE_ENV: "development", DATABASE_URL: "postgres://db/app" })).toBe(false);
  });

  it("follows an explicit SENDSTREAM_SEED either way", () => {
    expect(seedsOnStart({ NODE_ENV: "production", SENDSTREAM_SEED: "true" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", SENDSTREAM_SEED: "true" })).toBe(true);
    expect(seedsOnStart({ NODE_ENV: "development", SENDSTREAM_SEED: "false" })).toBe(false);
  });
});
