// Sign-in and sign-up throttling on the shared fixed-window counters (`rate_limit_counters`, also
// used by the trigger endpoint), so every server instance sees the same counts.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/types";
import { queryRows } from "@/db/rows";

export interface ThrottleRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Sign-in throttling, shaped so that nobody can lock an account's owner out by typing wrong
 * passwords for it:
 * - hard, per (email, client address): 10 attempts in 15 minutes, then that address waits for the
 *   window to end; the owner elsewhere is not affected;
 * - hard, per client address: 100 attempts in 15 minutes, across emails;
 * - soft, per email from anywhere: after 5 attempts each further one must wait a delay that doubles
 *   (1 s, 2 s, 4 s… up to 60 s) after the one before; the right password still works once it
 *   has passed. Forgotten after 15 minutes without an attempt, or at a successful sign-in.
 * Without a known client address (TRUSTED_PROXY_HOPS=0) only the soft rule applies: every client
 * would share the hard buckets, and a few wrong passwords would lock everyone out.
 * A browser that signed in to the account before (lib/auth/known-device.ts) skips the soft rule,
 * limited instead to 10 attempts per (email, device) in 15 minutes; past them it is one more client.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_LIMIT_PER_EMAIL_AND_IP = 10;
export const SIGN_IN_LIMIT_PER_IP = 100;
export const SIGN_IN_LIMIT_PER_KNOWN_DEVICE = 10;
export const SIGN_IN_FREE_ATTEMPTS_PER_EMAIL = 5;
export const SIGN_IN_MAX_DELAY_SECONDS = 60;
/** Sign-ups per client IP per hour; without a known IP, for all unknown clients together. */
export const SIGN_UP_WINDOW_SECONDS = 60 * 60;
export const SIGN_UP_LIMIT_PER_IP = 20;
export const SIGN_UP_LIMIT_UNKNOWN_IP = 300;

/** The hard sign-in rules; none without a known client address. */
export function signInRules(email: string, ip: string | null): ThrottleRule[] {
  if (!ip) return [];
  return [
    { bucket: `auth:sign-in:email-ip:${email.toLowerCase()}:${ip}`, limit: SIGN_IN_LIMIT_PER_EMAIL_AND_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS },
    { bucket: `auth:sign-in:ip:${ip}`, limit: SIGN_IN_LIMIT_PER_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS },
  ];
}

export function knownDeviceRule(email: string, deviceId: string): ThrottleRule {
  return { bucket: `auth:sign-in:device:${email.toLowerCase()}:${deviceId}`, limit: SIGN_IN_LIMIT_PER_KNOWN_DEVICE, windowSeconds: SIGN_IN_WINDOW_SECONDS };
}

/** The soft rule's counter: `count` attempts so far, `window_start` the time of the last one. */
export function signInEmailBucket(email: string): string {
  return `auth:sign-in:email:${email.toLowerCase()}`;
}

/** How long an email's next sign-in attempt must wait after its `attempts`-th. */
export function signInDelaySeconds(attempts: number): number {
  if (attempts < SIGN_IN_FREE_ATTEMPTS_PER_EMAIL) return 0;
  return Math.min(SIGN_IN_MAX_DELAY_SECONDS, 2 ** (attempts - SIGN_IN_FREE_ATTEMPTS_PER_EMAIL));
}

/**
 * The soft per-email rule: claims the next attempt in one statement (so parallel attempts cannot
 * all pass at once), or returns the seconds to wait when the delay since the last attempt has not
 * passed. A refused attempt is not counted and does not move the delay.
 */
export async function claimEmailAttempt(db: Executor, email: string): Promise<number | null> {
  const bucket = signInEmailBucket(email);
  const delay = sql`make_interval(secs => least(${SIGN_IN_MAX_DELAY_SECONDS}::float8, power(2, r.count - ${SIGN_IN_FREE_ATTEMPTS_PER_EMAIL})::float8))`;
  const claimed = await queryRows<{ count: number }>(
    db,
    sql`insert into rate_limit_counters as r (bucket, window_start, count) values (${bucket}, now(), 1)
      on conflict (bucket) do update set
        count = case when r.window_start < now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) then 1 else r.count + 1 end,
        window_start = now()
      where r.count < ${SIGN_IN_FREE_ATTEMPTS_PER_EMAIL} or r.window_start <= now() - ${delay}
      returning r.count`,
  );
  if (claimed.length > 0) return null;
  const [row] = await queryRows<{ wait: number | string }>(
    db,
    sql`select extract(epoch from (r.window_start + ${delay} - now()))::float8 as wait from rate_limit_counters r where r.bucket = ${bucket}`,
  );
  return Math.max(1, Math.ceil(Number(row?.wait ?? 1)));
}

export function signUpRules(ip: string | null): ThrottleRule[] {
  return [{ bucket: `auth:sign-up:ip:${ip ?? "unknown"}`, limit: ip ? SIGN_UP_LIMIT_PER_IP : SIGN_UP_LIMIT_UNKNOWN_IP, windowSeconds: SIGN_UP_WINDOW_SECONDS }];
}

/**
 * Counts one attempt against every rule (one statement) before any work is done, so a burst of
 * parallel attempts cannot all slip in before the first failure is recorded. Returns null when
 * the attempt may go ahead, or the seconds until the longest exceeded window ends.
 */
export async function countAttempt(db: Executor, rules: ThrottleRule[]): Promise<number | null> {
  if (rules.length === 0) return null;
  const values = sql.join(
    rules.map((rule) => sql`(${rule.bucket}::text, ${rule.windowSeconds}::int)`),
    sql`, `,
  );
  const rows = await queryRows<{ bucket: string; count: number | string; since_start: number | string }>(
    db,
    sql`insert into rate_limit_counters as r (bucket, window_start, count)
      select b.bucket, date_bin(make_interval(secs => b.secs), now(), timestamptz '2000-01-01'), 1
      from (values ${values}) as b(bucket, secs)
      order by b.bucket
      on conflict (bucket) do update set
        count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
        window_start = excluded.window_start
      returning r.bucket, r.count, extract(epoch from (now() - r.window_start))::float8 as since_start`,
  );
  let wait: number | null = null;
  for (const row of rows) {
    const rule = rules.find((candidate) => candidate.bucket === row.bucket);
    if (!rule || Number(row.count) <= rule.limit) continue;
    const seconds = Math.max(1, Math.ceil(rule.windowSeconds - Number(row.since_start)));
    wait = Math.max(wait ?? 0, seconds);
  }
  return wait;
}

/** A successful sign-in: the email's delay and the address's count for it start again, and the attempt does not count against the address. */
export async function forgiveSignIn(db: Executor, email: string, ip: string | null, deviceId: string | null = null): Promise<void> {
  const [emailAndIpRule, ipRule] = signInRules(email, ip);
  const buckets = [signInEmailBucket(email), emailAndIpRule?.bucket ?? null, deviceId ? knownDeviceRule(email, deviceId).bucket : null];
  await db.execute(sql`delete from rate_limit_counters where bucket in (${buckets[0]}, ${buckets[1]}, ${buckets[2]})`);
  if (ipRule) await db.execute(sql`update rate_limit_counters set count = greatest(count - 1, 0) where bucket = ${ipRule.bucket}`);
}
