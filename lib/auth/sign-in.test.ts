import bcrypt from "bcryptjs";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rateLimitCounters, users } from "@/db/schema";
import { POST as signUpRoute } from "@/app/api/auth/sign-up/route";
import { createAccount, verifyCredentials } from "./accounts";
import { authOptions } from "./options";
import { signUpSchema } from "./schemas";
import { authenticate, SignInThrottledError } from "./sign-in";
import { KNOWN_DEVICE_COOKIE, knownDeviceId } from "./known-device";
import { withKnownDevice, withRetryAfter } from "./route-handler";
import { signInErrorMessage } from "./sign-in-errors";
import {
  claimEmailAttempt,
  countAttempt,
  knownDeviceRule,
  SIGN_IN_FREE_ATTEMPTS_PER_EMAIL,
  SIGN_IN_LIMIT_PER_KNOWN_DEVICE,
  SIGN_IN_LIMIT_PER_EMAIL_AND_IP,
  SIGN_IN_MAX_DELAY_SECONDS,
  SIGN_IN_WINDOW_SECONDS,
  signInDelaySeconds,
  signInEmailBucket,
  signInRules,
  SIGN_UP_LIMIT_PER_IP,
  signUpRules,
} from "./throttle";

const unique = (what: string) => `${what}-${Math.random().toString(36).slice(2)}`;
const uniqueIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const PASSWORD = "right password 1";

async function account() {
  const email = `${unique("signin")}@example.test`;
  await createAccount(await getDb(), signUpSchema.parse({ name: "Ada", email, password: PASSWORD }));
  return email;
}

const savedHops = process.env.TRUSTED_PROXY_HOPS;
afterEach(() => {
  if (savedHops === undefined) delete process.env.TRUSTED_PROXY_HOPS;
  else process.env.TRUSTED_PROXY_HOPS = savedHops;
});

/** Moves the email's last attempt back in time, as if `seconds` had passed since. */
async function letTimePass(email: string, seconds: number) {
  const db = await getDb();
  await db.execute(sql`update rate_limit_counters set window_start = window_start - make_interval(secs => ${seconds}) where bucket = ${signInEmailBucket(email)}`);
}

async function emailAttempts(email: string) {
  const [row] = await (await getDb()).select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, signInEmailBucket(email)));
  return row?.count ?? 0;
}

describe("sign-in throttling", () => {
  it("refuses one address even the right password after 10 attempts for the email, while the owner elsewhere signs in", async () => {
    const db = await getDb();
    const email = await account();
    const attacker = uniqueIp();
    // Each check hashes (slow by design), so most of the wrong attempts are counted directly.
    for (let i = 0; i < SIGN_IN_LIMIT_PER_EMAIL_AND_IP - 1; i++) expect(await countAttempt(db, signInRules(email, attacker))).toBeNull();
    expect(await authenticate(db, { email, password: "wrong", ip: attacker })).toBeNull();
    const error = await authenticate(db, { email, password: PASSWORD, ip: attacker }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInThrottledError);
    const wait = (error as SignInThrottledError).retryAfterSeconds;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(signInErrorMessage((error as Error).message)).toMatch(/^Too many attempts, try again in \d+ (seconds?|minutes?)\.$/);
    expect(await authenticate(db, { email, password: PASSWORD, ip: uniqueIp() })).toMatchObject({ email });
  });

  it("only slows wrong passwords for an email from anywhere: a growing delay, after which the right password works", async () => {
    const db = await getDb();
    const email = await account();
    // Without a known address (TRUSTED_PROXY_HOPS=0) this is the only rule.
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS_PER_EMAIL; i++) expect(await claimEmailAttempt(db, email)).toBeNull();
    const waits: number[] = [];
    for (let round = 0; round < 9; round++) {
      const wait = await claimEmailAttempt(db, email);
      expect(wait).not.toBeNull();
      waits.push(wait!);
      // A refused attempt neither counts nor moves the delay.
      expect(await claimEmailAttempt(db, email)).not.toBeNull();
      await letTimePass(email, wait!);
      expect(await claimEmailAttempt(db, email)).toBeNull();
    }
    // The wait named is what is left of each delay: at most the delay, and (on a loaded machine) a little less.
    waits.forEach((wait, i) => {
      const delay = signInDelaySeconds(SIGN_IN_FREE_ATTEMPTS_PER_EMAIL + i);
      expect(wait).toBeLessThanOrEqual(delay);
      expect(wait).toBeGreaterThanOrEqual(Math.min(delay, Math.max(1, delay - 5)));
    });
    expect(signInDelaySeconds(SIGN_IN_FREE_ATTEMPTS_PER_EMAIL + 8)).toBe(SIGN_IN_MAX_DELAY_SECONDS);
    expect(await emailAttempts(email)).toBe(SIGN_IN_FREE_ATTEMPTS_PER_EMAIL + 9);
    await expect(authenticate(db, { email, password: PASSWORD, ip: null })).rejects.toBeInstanceOf(SignInThrottledError);
    await letTimePass(email, SIGN_IN_MAX_DELAY_SECONDS);
    expect(await authenticate(db, { email, password: PASSWORD, ip: null })).toMatchObject({ email });
    expect(await emailAttempts(email)).toBe(0);
  });

  it("forgets an email's attempts after 15 quiet minutes", async () => {
    const db = await getDb();
    const email = await account();
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS_PER_EMAIL + 1; i++) await claimEmailAttempt(db, email);
    await letTimePass(email, SIGN_IN_WINDOW_SECONDS + 1);
    expect(await claimEmailAttempt(db, email)).toBeNull();
    expect(await emailAttempts(email)).toBe(1);
  });

  it("counts parallel attempts atomically: a burst gets exactly the limit through", async () => {
    const db = await getDb();
    const rule = { bucket: `auth:test:${unique("burst")}`, limit: 5, windowSeconds: 60 };
    const results = await Promise.all(Array.from({ length: 12 }, () => countAttempt(db, [rule])));
    expect(results.filter((wait) => wait === null)).toHaveLength(5);
    const email = `${unique("burst")}@example.test`;
    const claims = await Promise.all(Array.from({ length: 12 }, () => claimEmailAttempt(db, email)));
    expect(claims.filter((wait) => wait === null)).toHaveLength(SIGN_IN_FREE_ATTEMPTS_PER_EMAIL);
  });

  it("throttles per client IP across emails when the IP is known", async () => {
    const db = await getDb();
    const ip = uniqueIp();
    const rules = [{ bucket: `auth:sign-in:ip:${ip}`, limit: 2, windowSeconds: 900 }];
    expect(await countAttempt(db, rules)).toBeNull();
    expect(await countAttempt(db, rules)).toBeNull();
    expect(await countAttempt(db, rules)).toBeGreaterThan(0);
  });

  it("throttles through next-auth's authorize, reading the IP from the trusted proxy hop", async () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    const db = await getDb();
    const email = await account();
    const ip = uniqueIp();
    const provider = authOptions.providers[0] as unknown as {
      options: { authorize: (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown> };
    };
    const req = { headers: { "x-forwarded-for": `203.0.113.9, ${ip}` } };
    for (let i = 0; i < SIGN_IN_LIMIT_PER_EMAIL_AND_IP - 1; i++) await countAttempt(db, signInRules(email, ip));
    expect(await provider.options.authorize({ email, password: "wrong password" }, req)).toBeNull();
    await expect(provider.options.authorize({ email, password: PASSWORD }, req)).rejects.toThrow(/^TooManyAttempts:\d+$/);
    const [ipRow] = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, `auth:sign-in:ip:${ip}`));
    expect(ipRow?.count).toBe(SIGN_IN_LIMIT_PER_EMAIL_AND_IP + 1);
    // The client the proxy did not name (the forged left-hand entry) is another address, not refused.
    const other = { headers: { "x-forwarded-for": `${ip}, ${uniqueIp()}` } };
    expect(await provider.options.authorize({ email, password: PASSWORD }, other)).toMatchObject({ email });
  });
});

describe("known devices", () => {
  const secret = "test-secret-for-known-devices-0123456789";
  type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
  const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

  /** Runs up the email's delay as wrong passwords from elsewhere would. */
  async function attacked(email: string) {
    const db = await getDb();
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS_PER_EMAIL + 4; i++) {
      await claimEmailAttempt(db, email);
      await letTimePass(email, SIGN_IN_MAX_DELAY_SECONDS);
    }
    expect(await claimEmailAttempt(db, email)).toBeNull();
    expect(await claimEmailAttempt(db, email)).toBeGreaterThan(0);
  }

  function cookieOf(setCookie: string) {
    return setCookie.split(";")[0]!;
  }

  it("marks the browser after a successful sign-in, for that email only", async () => {
    const signIn = new Request("http://app.test/api/auth/callback/credentials", { method: "POST", body: new URLSearchParams({ email: " Ada@Example.test ", password: "x" }) });
    const failed = await withKnownDevice(signIn.clone(), Response.json({ url: "http://app.test/sign-in?error=CredentialsSignin" }), secret);
    expect(failed.headers.getSetCookie()).toEqual([]);
    const ok = new Response(null, { status: 200, headers: [["set-cookie", "next-auth.session-token=abc; Path=/; HttpOnly"]] });
    const marked = await withKnownDevice(signIn, ok, secret);
    const device = marked.headers.getSetCookie().find((cookie) => cookie.startsWith(`${KNOWN_DEVICE_COOKIE}=`));
    expect(device).toMatch(/HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(knownDeviceId(cookieOf(device!), "ada@example.test", secret)).toMatch(/^[\w-]{22}$/);
    expect(knownDeviceId(cookieOf(device!), "eve@example.test", secret)).toBeNull();
    expect(knownDeviceId(cookieOf(device!), "ada@example.test", "another secret")).toBeNull();
    const otherDevice = cookieOf(device!).replace(/=(.)/, (_, first: string) => `=${first === "A" ? "B" : "A"}`);
    expect(knownDeviceId(otherDevice, "ada@example.test", secret)).toBeNull();
  });

  it("signs the owner in from a known device while wrong passwords from elsewhere hold the email's delay", async () => {
    const email = await account();
    await attacked(email);
    const secure = (await withKnownDevice(
      new Request("http://app.test/api/auth/callback/credentials", { method: "POST", body: new URLSearchParams({ email }) }),
      new Response(null, { headers: [["set-cookie", "next-auth.session-token=abc"]] }),
      process.env.AUTH_SECRET!,
    )).headers.getSetCookie().find((cookie) => cookie.startsWith(KNOWN_DEVICE_COOKIE))!;
    await expect(authorize({ email, password: PASSWORD }, { headers: {} })).rejects.toThrow(/^TooManyAttempts:\d+$/);
    expect(await authorize({ email, password: PASSWORD }, { headers: { cookie: `other=1; ${cookieOf(secure)}` } })).toMatchObject({ email });
  });

  it("counts a known device's own attempts: past 10 it waits for the email's delay like any client", async () => {
    const db = await getDb();
    const email = await account();
    const deviceId = "a".repeat(22);
    for (let i = 0; i < SIGN_IN_LIMIT_PER_KNOWN_DEVICE; i++) await countAttempt(db, [knownDeviceRule(email, deviceId)]);
    await attacked(email);
    await expect(authenticate(db, { email, password: PASSWORD, ip: null, knownDeviceId: deviceId })).rejects.toBeInstanceOf(SignInThrottledError);
  });
});

describe("sign-up throttling", () => {
  it("answers 429 with Retry-After once the client IP has used its hourly allowance", async () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    const ip = uniqueIp();
    const db = await getDb();
    for (let i = 0; i < SIGN_UP_LIMIT_PER_IP; i++) expect(await countAttempt(db, signUpRules(ip))).toBeNull();
    const response = await signUpRoute(
      new Request("http://app.test/api/auth/sign-up", {
        method: "POST",
        headers: { origin: "http://app.test", "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ name: "Grace", email: `${unique("su")}@example.test`, password: "hopper-1906" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("legacy hashes", () => {
  it("moves a bcrypt hash to scrypt on the next successful sign-in", async () => {
    const db = await getDb();
    const email = await account();
    await db.update(users).set({ passwordHash: await bcrypt.hash(PASSWORD, 4) }).where(eq(users.email, email));
    expect(await verifyCredentials(db, email, "not it at all")).toBeNull();
    const [before] = await db.select().from(users).where(eq(users.email, email));
    expect(before?.passwordHash).toMatch(/^\$2/);
    expect(await verifyCredentials(db, email, PASSWORD)).toMatchObject({ email });
    const [after] = await db.select().from(users).where(eq(users.email, email));
    expect(after?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyCredentials(db, email, PASSWORD)).toMatchObject({ email });
  });
});

describe("next-auth's answer to a throttled sign-in", () => {
  const post = new Request("http://app.test/api/auth/callback/credentials", { method: "POST" });

  it("gets Retry-After, and 429 when the form asked for JSON", async () => {
    const json = await withRetryAfter(post, Response.json({ url: "http://app.test/sign-in?error=TooManyAttempts%3A540" }));
    expect(json.status).toBe(429);
    expect(json.headers.get("retry-after")).toBe("540");
    expect(await json.json()).toEqual({ url: "http://app.test/sign-in?error=TooManyAttempts%3A540" });
    const redirect = await withRetryAfter(post, new Response(null, { status: 302, headers: { location: "/sign-in?error=TooManyAttempts:60" } }));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("retry-after")).toBe("60");
  });

  it("leaves every other answer alone", async () => {
    const wrong = Response.json({ url: "http://app.test/sign-in?error=CredentialsSignin" });
    expect(await withRetryAfter(post, wrong)).toBe(wrong);
  });
});
