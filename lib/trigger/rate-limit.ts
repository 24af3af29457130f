// Fixed-window request counters kept in Postgres (`rate_limit_counters`), so every server
// instance shares them. An instance claims counts in blocks (`RateLimitLeases`): one atomic upsert
// per block, sent with a request's context statement, instead of one per request.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
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

/** Most requests one lease claims (a bucket of 2,500 a minute or more). */
export const MAX_LEASE = 50;
/** A lease claims a fiftieth of the limit: below 100 a minute, one request at a time (exact, as a plain counter). */
const LEASE_DIVISOR = 50;

/** Requests one lease claims for a bucket of `limit` a minute. `leaseSizeSql` says the same in SQL. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / LEASE_DIVISOR)));
}

/** `leaseSize` of an integer SQL expression. */
export function leaseSizeSql(limit: SQL): SQL {
  return sql`greatest(1, least(${sql.raw(String(MAX_LEASE))}, (${limit}) / ${sql.raw(String(LEASE_DIVISOR))}))`;
}

/**
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` over the leases a SELECT asks for (columns `bucket`,
 * `take`): adds `take` to each counter of the current minute, or restarts it at `take` in a new
 * minute. Returns `bucket, count, reset_ms`: the lease is the requests `count - take + 1 … count`
 * of the window, which ends `reset_ms` after the statement. Usable as a CTE.
 */
export function leaseCountersSql(wantedSelect: SQL): SQL {
  return sql`insert into rate_limit_counters as r (bucket, window_start, count)
    select w.bucket, date_bin(interval '${sql.raw(String(RATE_LIMIT_WINDOW_SECONDS))} seconds', now(), timestamptz '2000-01-01'), w.take
    from (${wantedSelect}) as w
    order by w.bucket
    on conflict (bucket) do update set
      count = case when r.window_start = excluded.window_start then r.count + excluded.count else excluded.count end,
      window_start = excluded.window_start
    returning r.bucket, r.count,
      greatest(0, extract(epoch from (r.window_start + interval '${sql.raw(String(RATE_LIMIT_WINDOW_SECONDS))} seconds' - now())) * 1000)::float8 as reset_ms`;
}

/** A lease as the context statement returns it. */
export interface LeaseRow {
  bucket: string;
  count: number | string;
  take: number | string;
  reset_ms: number | string;
}

/** One request's place in a bucket's window. */
export interface RateLimitToken {
  /** Requests counted in the window up to this one, this one included. */
  count: number;
  /** When the window ends, on this process's clock (ms since the epoch). */
  windowEnd: number;
}

/**
 * A request that is to claim a lease (`hold` found no count). `exclusive`: no other request of this
 * process claims the bucket meanwhile; they wait for this claim to land.
 */
export interface LeaseClaim {
  readonly bucket: string;
  readonly exclusive: boolean;
}

interface PendingClaim extends LeaseClaim {
  /** Resolves when the claim lands: true when it granted a lease. */
  readonly landed: Promise<boolean>;
  resolve(granted: boolean): void;
}

interface LeasedRange {
  next: number;
  end: number;
  windowEnd: number;
}

/**
 * The leases this process holds. The counters stay in Postgres (`rate_limit_counters`), shared by
 * every instance, but a request does not write its own count: an instance claims a block of
 * `leaseSize(limit)` consecutive counts of the window in one upsert and hands them to its next
 * requests, so only about one request in `leaseSize` writes (in the context statement it sends
 * anyway). A count above the limit is a 429, wherever it was claimed.
 *
 * Bounds: the counts handed out in a window are distinct across instances and never reused, so a
 * window never accepts more than its limit, with any number of instances (none overshoots; a limit
 * lowered during a window applies to the counts already held too, since each is checked against the
 * limit the request reads). A count is used only within the window it was claimed for (see
 * `claimed`), so no window takes another's counts. What an instance
 * still holds when the window ends, or when it stops, is lost: with N instances taking requests,
 * up to (N - 1) × (leaseSize - 1) requests of a window can be refused below the limit (2 % of the
 * limit per further instance at most; none with one instance, and none for a limit under 100,
 * where a lease is one request).
 */
export class RateLimitLeases {
  private readonly ranges = new Map<string, LeasedRange[]>();
  private readonly claims = new Map<string, PendingClaim>();

  /**
   * A count this process holds in the bucket's window, or the claim this request is to send. One
   * claim per bucket at a time: concurrent requests wait for it and share its lease, so that a
   * burst claims leases one after the other instead of one each (which would leave most of their
   * counts unused). After a claim that granted nothing (the campaign is missing, the statement
   * failed), the waiters claim each for itself.
   */
  async hold(bucket: string): Promise<RateLimitToken | LeaseClaim> {
    for (;;) {
      const token = this.take(bucket);
      if (token) return token;
      const pending = this.claims.get(bucket);
      if (!pending) break;
      if (!(await pending.landed)) return { bucket, exclusive: false };
    }
    let resolve!: (granted: boolean) => void;
    const landed = new Promise<boolean>((done) => (resolve = done));
    const claim: PendingClaim = { bucket, exclusive: true, landed, resolve };
    this.claims.set(bucket, claim);
    return claim;
  }

  /**
   * The claim's statement answered (`row`: the lease it granted, if any) or failed (undefined):
   * keeps the lease, wakes the requests waiting for it, and returns this request's count.
   */
  landed(claim: LeaseClaim, row: LeaseRow | undefined, sentAt: number): RateLimitToken | null {
    const token = row ? this.claimed({ ...row, bucket: claim.bucket }, sentAt) : null;
    const pending = this.claims.get(claim.bucket);
    if (claim.exclusive && pending === claim) {
      this.claims.delete(claim.bucket);
      pending.resolve(token !== null);
    }
    return token;
  }

  /** The next count this process holds in the bucket's current window, or null (a lease is needed). */
  take(bucket: string, now = Date.now()): RateLimitToken | null {
    const held = this.ranges.get(bucket);
    if (!held) return null;
    while (held.length > 0) {
      const range = held[0]!;
      if (range.windowEnd > now && range.next <= range.end) {
        const token = { count: range.next, windowEnd: range.windowEnd };
        range.next += 1;
        return token;
      }
      held.shift();
    }
    this.ranges.delete(bucket);
    return null;
  }

  /**
   * Keeps a lease Postgres granted and takes its first count for the request that claimed it.
   * `sentAt`: when the statement was sent, on this clock. Postgres read its `now()` later, so
   * `sentAt + reset_ms` is at or before the window's real end: a count is never used after it.
   */
  claimed(row: LeaseRow, sentAt: number): RateLimitToken {
    const count = Number(row.count);
    const first = count - Number(row.take) + 1;
    const windowEnd = sentAt + Number(row.reset_ms);
    if (first < count) {
      const held = this.ranges.get(row.bucket) ?? [];
      held.push({ next: first + 1, end: count, windowEnd });
      this.ranges.set(row.bucket, held);
      if (this.ranges.size > 10_000) this.dropExpired(sentAt);
    }
    return { count: first, windowEnd };
  }


  private dropExpired(now: number): void {
    for (const [bucket, held] of this.ranges) {
      if (held.every((range) => range.windowEnd <= now || range.next > range.end)) this.ranges.delete(bucket);
    }
  }
}

/**
 * This process's leases, shared by every request it serves. On `globalThis`: Next.js may load this
 * module in more than one module graph per process, and two pools would hold counts apart.
 */
export const processLeases: RateLimitLeases = ((globalThis as { __sendstreamRateLimitLeases?: RateLimitLeases }).__sendstreamRateLimitLeases ??=
  new RateLimitLeases());

/** A policy's usage from the request's count. */
export function usageOf(bucket: RateLimitBucket, token: RateLimitToken, now = Date.now()): RateLimitUsage {
  return { ...bucket, count: token.count, resetSeconds: Math.max(1, Math.ceil((token.windowEnd - now) / 1000)) };
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
