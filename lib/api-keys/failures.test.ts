import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { GET as ME } from "@/app/api/v1/me/route";
import { generateApiKey } from "@/lib/api-keys/format";
import { callRoute, createApiAccount, type ApiAccount } from "@/lib/testing/api-factories";
import { withCountingGetDb } from "@/lib/testing/counting-db";
import { assertNotBlocked, FAILED_AUTH_LIMIT_PER_IP, failedAuthBucket, recordFailedAuthentication, resetBlockedAddresses } from "./failures";

const savedHops = process.env.TRUSTED_PROXY_HOPS;
let warnings: string[];

beforeEach(() => {
  process.env.TRUSTED_PROXY_HOPS = "1";
  resetBlockedAddresses();
  warnings = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.join(" "));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (savedHops === undefined) delete process.env.TRUSTED_PROXY_HOPS;
  else process.env.TRUSTED_PROXY_HOPS = savedHops;
});

/** An address no other test uses, so the shared counters start from zero. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const me = (key: string, ip?: string) => callRoute(ME, "GET", "/api/v1/me", { key, headers: ip ? { "x-forwarded-for": `198.51.100.1, ${ip}` } : {} });

describe("failed API-key authentications", () => {
  it(`answers 429 with Retry-After after ${FAILED_AUTH_LIMIT_PER_IP} failures a minute from one address, and logs each without the key`, async () => {
    const account: ApiAccount = await createApiAccount();
    const ip = freshIp();
    const wrong = generateApiKey();
    expect((await me(wrong, ip)).status).toBe(401);
    // The other failures of the minute at once, rather than 99 more requests that might straddle a window.
    await (await getDb()).execute(sql`update rate_limit_counters set count = ${FAILED_AUTH_LIMIT_PER_IP - 1} where bucket = ${failedAuthBucket(ip)}`);
    expect((await me(wrong, ip)).status).toBe(401);
    const blocked = await me(wrong, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ type: "/docs/api#error-too_many_failed_authentications" });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // The blocked address is refused before the key lookup, even with a valid key…
    expect((await me(account.key, ip)).status).toBe(429);
    // …while other addresses, and the workspace's key from them, are untouched.
    expect((await me(account.key, freshIp())).status).toBe(200);
    expect((await me(generateApiKey(), freshIp())).status).toBe(401);

    const logged = warnings.join("\n");
    expect(logged).toContain(`failed from ${ip}: key ${wrong.slice(0, 5)}…`);
    expect(logged).not.toContain(wrong);
    expect(logged).toMatch(new RegExp(`${ip.replace(/\./g, "\\.")} over ${FAILED_AUTH_LIMIT_PER_IP} failures`));
  });

  it("counts malformed keys too, but not requests without any key", async () => {
    const ip = freshIp();
    expect((await me("ss_not-a-key", ip)).status).toBe(401);
    expect(warnings.join("\n")).toContain(`failed from ${ip}: key ss_no…`);
    warnings = [];
    expect((await callRoute(ME, "GET", "/api/v1/me", { headers: { "x-forwarded-for": ip } })).status).toBe(401);
    expect(warnings).toEqual([]);
  });

  it("counts and logs failures of unknown addresses but never answers them 429: one client cannot lock every integration out", async () => {
    const db = await getDb();
    const account = await createApiAccount();
    expect(await recordFailedAuthentication(db, { ip: null, presented: generateApiKey() }, { perIp: 100, unknown: 0 })).toBeNull();
    expect(() => assertNotBlocked(null)).not.toThrow();
    delete process.env.TRUSTED_PROXY_HOPS;
    // The unknown-address bucket is shared with every other test file on a shared database; start its minute afresh so
    // this failure is logged individually rather than folded into an earlier "over the limit" line.
    await db.execute(sql`delete from rate_limit_counters where bucket = ${failedAuthBucket(null)}`);
    expect((await me(generateApiKey(), "203.0.113.50")).status).toBe(401);
    expect(warnings.join("\n")).toContain("failed from an unknown address");
    expect((await me(account.key, "203.0.113.50")).status).toBe(200);
  });

  it("costs a request with a valid key no extra statement: the counters are touched only on failure", async () => {
    const account = await createApiAccount();
    const ip = freshIp();
    const seen = await withCountingGetDb(async (statements) => {
      expect((await me(account.key, ip)).status).toBe(200);
      return [...statements];
    });
    expect(seen.filter((sql) => /api_keys/.test(sql) && /select/i.test(sql))).toHaveLength(1);
    expect(seen.some((sql) => /rate_limit_counters/.test(sql))).toBe(false);
  });
});
