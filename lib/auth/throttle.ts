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

/** Sign-in attempts per email (any client) and per client IP, in 15-minute windows. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_LIMIT_PER_EMAIL = 10;
export const SIGN_IN_LIMIT_PER_IP = 100;
/** Sign-ups per client IP per hour; without a known IP, for all unknown clients together. */
export const SIGN_UP_WINDOW_SECONDS = 60 * 60;
export const SIGN_UP_LIMIT_PER_IP = 20;
export const SIGN_UP_LIMIT_UNKNOWN_IP = 300;

export function signInRules(email: string, ip: string | null): ThrottleRule[] {
  const rules: ThrottleRule[] = [{ bucket: `auth:sign-in:email:${email.toLowerCase()}`, limit: SIGN_IN_LIMIT_PER_EMAIL, windowSeconds: SIGN_IN_WINDOW_SECONDS }];
  // Without a trusted address every client would share one bucket, and a few wrong passwords
  // would lock everyone out; the per-email limit still stops guessing one account's password.
  if (ip) rules.push({ bucket: `auth:sign-in:ip:${ip}`, limit: SIGN_IN_LIMIT_PER_IP, windowSeconds: SIGN_IN_WINDOW_SECONDS });
  return rules;
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

/** A successful sign-in: the email's count starts again, and the attempt does not count against the IP. */
export async function forgiveSignIn(db: Executor, email: string, ip: string | null): Promise<void> {
  const [emailRule, ipRule] = signInRules(email, ip);
  await db.execute(sql`delete from rate_limit_counters where bucket = ${emailRule!.bucket}`);
  if (ipRule) await db.execute(sql`update rate_limit_counters set count = greatest(count - 1, 0) where bucket = ${ipRule.bucket}`);
}
