// Fixed-window request counters kept in Postgres (`rate_limit_counters`), so every server
// instance shares them. One atomic upsert per request increments all of its buckets.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { ApiError } from "@/lib/http/errors";

export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** Trigger requests per minute allowed for one API key unless TRIGGER_KEY_RATE_LIMIT_PER_MINUTE says otherwise. */
export const DEFAULT_KEY_RATE_LIMIT_PER_MINUTE = 1200;
/** Matches the default of `campaigns.rate_limit_per_minute`. */
export const DEFAULT_CAMPAIGN_RATE_LIMIT_PER_MINUTE = 600;

/** The per-key trigger limit in effect (env `TRIGGER_KEY_RATE_LIMIT_PER_MINUTE`, a positive integer). */
export function keyRateLimitPerMinute(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.TRIGGER_KEY_RATE_LIMIT_PER_MINUTE);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_KEY_RATE_LIMIT_PER_MINUTE;
}

export type RatePolicyName = "key" | "campaign";

export interface RateLimitBucket {
  policy: RatePolicyName;
  /** Counter row id, e.g. `trigger:key:key_…`. */
  bucket: string;
  limit: number;
}

export interface RateLimitUsage extends RateLimitBucket {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export const keyBucket = (apiKeyId: string) => `trigger:key:${apiKeyId}`;
export const campaignBucket = (campaignId: string) => `trigger:campaign:${campaignId}`;

/**
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` over the buckets a SELECT yields (column
 * `bucket`): adds one to each counter of the current minute, or restarts it in a new minute.
 * Returns `bucket, count, reset_seconds`. Usable as a CTE so the increment shares a round trip.
 */
export function incrementCountersSql(bucketsSelect: SQL): SQL {
  return sql`insert into rate_limit_counters as r (bucket, window_start, count)
    select b.bucket, date_bin(interval '${sql.raw(String(RATE_LIMIT_WINDOW_SECONDS))} seconds', now(), timestamptz '2000-01-01'), 1
    from (${bucketsSelect}) as b
    order by b.bucket
    on conflict (bucket) do update set
      count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
      window_start = excluded.window_start
    returning r.bucket, r.count,
      greatest(1, ceil(extract(epoch from (r.window_start + interval '${sql.raw(String(RATE_LIMIT_WINDOW_SECONDS))} seconds' - now()))))::int as reset_seconds`;
}

/** Counts one request against each bucket and reports the usage (one statement). */
export async function consumeRateLimits(db: Executor, buckets: RateLimitBucket[]): Promise<RateLimitUsage[]> {
  if (buckets.length === 0) return [];
  const values = sql.join(
    buckets.map((b) => sql`select ${b.bucket}::text as bucket`),
    sql` union all `,
  );
  const rows = await queryRows<{ bucket: string; count: number; reset_seconds: number }>(db, incrementCountersSql(values));
  return usageFromRows(buckets, rows);
}

export function usageFromRows(
  buckets: RateLimitBucket[],
  rows: { bucket: string; count: number | string; reset_seconds: number | string }[],
): RateLimitUsage[] {
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  return buckets.flatMap((b) => {
    const row = byBucket.get(b.bucket);
    return row ? [{ ...b, count: Number(row.count), resetSeconds: Math.max(1, Number(row.reset_seconds)) }] : [];
  });
}

/** `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) for every policy applied. */
export function rateLimitHeaders(usage: RateLimitUsage[]): Record<string, string> {
  if (usage.length === 0) return {};
  return {
    "RateLimit-Policy": usage.map((u) => `"${u.policy}";q=${u.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`).join(", "),
    RateLimit: usage.map((u) => `"${u.policy}";r=${Math.max(0, u.limit - u.count)};t=${u.resetSeconds}`).join(", "),
  };
}

/** Throws the 429 when any policy is exceeded; `Retry-After` points at the end of the longest wait. */
export function assertWithinRateLimits(usage: RateLimitUsage[]): void {
  const violated = usage.filter((u) => u.count > u.limit);
  if (violated.length === 0) return;
  const retryAfter = Math.max(...violated.map((u) => u.resetSeconds));
  const names = violated.map((u) => (u.policy === "key" ? `this API key (${u.limit} requests per minute)` : `this campaign (${u.limit} requests per minute)`));
  throw new ApiError(
    "rate_limited",
    `Rate limit exceeded for ${names.join(" and ")}. Retry in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
    { headers: { ...rateLimitHeaders(usage), "Retry-After": String(retryAfter) }, extensions: { "violated-policies": violated.map((u) => u.policy) } },
  );
}

/** Removes counters whose window ended long ago (any instance may run it; cheap and idempotent). */
export async function pruneRateLimitCounters(db: Executor, olderThanSeconds = 3600): Promise<void> {
  await db.execute(sql`delete from rate_limit_counters where window_start < now() - make_interval(secs => ${olderThanSeconds})`);
}
