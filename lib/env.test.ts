import { describe, expect, it } from "vitest";
import { getEnv } from "./env";

describe("getEnv", () => {
  it("applies defaults for an empty environment", () => {
    const env = getEnv({ NODE_ENV: "production", ENCRYPTION_KEY: "ab".repeat(32) });
    expect(env.WHATSAPP_GRAPH_URL).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("lists every invalid variable in one error", () => {
    expect(() => getEnv({ DATABASE_URL: "mysql://x", AUTH_SECRET: "short", APP_URL: "not a url" })).toThrowError(
      /DATABASE_URL[\s\S]*AUTH_SECRET[\s\S]*APP_URL/,
    );
  });

  it("requires DATABASE_URL on Vercel and says so", () => {
    expect(() => getEnv({ VERCEL: "1" })).toThrowError(/DATABASE_URL is required on Vercel/);
    expect(() => getEnv({ VERCEL: "1", DATABASE_URL: "postgres://u@h/db" })).not.toThrow();
  });

  it("requires an encryption key of its own in production, but not to build", () => {
    expect(() => getEnv({ NODE_ENV: "production", AUTH_SECRET: "a".repeat(40) })).toThrowError(/ENCRYPTION_KEY is required in production/);
    expect(() => getEnv({ NODE_ENV: "production", ENCRYPTION_KEYS: `k2:${"ab".repeat(32)},k1:${"cd".repeat(32)}` })).not.toThrow();
    expect(() => getEnv({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" })).not.toThrow();
    expect(() => getEnv({ NODE_ENV: "development" })).not.toThrow();
    expect(() => getEnv({ ENCRYPTION_KEYS: "k1:abcd" })).toThrowError(/ENCRYPTION_KEYS/);
  });

  it("treats empty strings as unset", () => {
    expect(getEnv({ DATABASE_URL: "", APP_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("accepts only true or false for SENDSTREAM_SEED", () => {
    expect(getEnv({ SENDSTREAM_SEED: "true" }).SENDSTREAM_SEED).toBe("true");
    expect(() => getEnv({ SENDSTREAM_SEED: "yes" })).toThrowError(/SENDSTREAM_SEED/);
  });

  it("trusts no proxy hop unless TRUSTED_PROXY_HOPS says how many", () => {
    expect(getEnv({}).TRUSTED_PROXY_HOPS).toBe(0);
    expect(getEnv({ TRUSTED_PROXY_HOPS: "2" }).TRUSTED_PROXY_HOPS).toBe(2);
    expect(() => getEnv({ TRUSTED_PROXY_HOPS: "-1" })).toThrowError(/TRUSTED_PROXY_HOPS/);
    expect(() => getEnv({ TRUSTED_PROXY_HOPS: "one" })).toThrowError(/TRUSTED_PROXY_HOPS/);
  });

  it("requires MAIL_WEBHOOK_URL with the webhook mail transport", () => {
    expect(() => getEnv({ MAIL_TRANSPORT: "webhook" })).toThrowError(/MAIL_WEBHOOK_URL is required/);
    expect(() => getEnv({ MAIL_TRANSPORT: "smtp" })).toThrowError(/MAIL_TRANSPORT/);
    expect(getEnv({ MAIL_TRANSPORT: "webhook", MAIL_WEBHOOK_URL: "https://relay.example/mail" }).MAIL_TRANSPORT).toBe("webhook");
  });
});
