// Failed API-key authentications, counted per client address in the shared fixed-window counters
// (`rate_limit_counters`, bucket `authfail:ip:<address>`), never against a workspace or a key.
//
// Cost: a request with a valid key makes no extra statement (one in-process Map lookup). A failed
// authentication makes one upsert (and a log line). Once an address is over the limit, this
// instance refuses its requests before the key lookup, with no statement, until the window ends;
// another instance blocks it at its own next failure from that address.
//
// Without a trusted proxy (TRUSTED_PROXY_HOPS=0) the address is unknown: all clients share one
// bucket, `authfail:ip:unknown`, which is counted and logged (with a warning once a minute past
// FAILED_AUTH_LIMIT_UNKNOWN_IP) but never answered with 429 or blocked. One client sending bad
// keys must not lock every integration out, and a 429 shared by everyone would single out nobody.
// Configure TRUSTED_PROXY_HOPS to get the per-address limit.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { clientIp } from "@/lib/http/client-ip";
import { ApiError } from "@/lib/http/errors";
import { authenticateApiKey, readPresentedApiKey, type AuthenticatedApiKey } from "./authenticate";

export const FAILED_AUTH_WINDOW_SECONDS = 60;
/** Failures per minute from one known address before it gets 429. */
export const FAILED_AUTH_LIMIT_PER_IP = 100;
/** Failures per minute from all clients of unknown address together before a warning (no 429). */
export const FAILED_AUTH_LIMIT_UNKNOWN_IP = 1000;

export const failedAuthBucket = (ip: string | null) => `authfail:ip:${ip ?? "unknown"}`;

/** Known addresses over the limit on this instance → when their window ends (ms since epoch). */
const blockedUntil = new Map<string, number>();
const MAX_BLOCKED = 10_000;

export function tooManyFailedAuthentications(retryAfterSeconds: number): ApiError {
  return new ApiError(
    "too_many_failed_authentications",
    `Too many requests with an invalid API key from this address. Retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`,
    { headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}

/** Throws the 429 when this address is blocked on this instance (no database access). */
export function assertNotBlocked(ip: string | null, now = Date.now()): void {
  if (!ip) return;
  const until = blockedUntil.get(ip);
  if (until === undefined) return;
  if (until <= now) {
    blockedUntil.delete(ip);
    return;
  }
  throw tooManyFailedAuthentications(Math.max(1, Math.ceil((until - now) / 1000)));
}

/** `ss_Ab…` for the log: enough to recognise a key's owner, far too little to use it. */
export function presentedKeyHint(presented: string): string {
  const start = presented.slice(0, 5).replace(/[^A-Za-z0-9_]/g, "?");
  return `${start}… (${presented.length} characters)`;
}

/**
 * Counts one failed authentication (one statement) and logs it. Returns the 429 to answer with
 * when a known address is over its limit, or null to answer the usual 401.
 */
export async function recordFailedAuthentication(
  db: Executor,
  input: { ip: string | null; presented: string; requestId?: string },
  limits: { perIp: number; unknown: number } = { perIp: FAILED_AUTH_LIMIT_PER_IP, unknown: FAILED_AUTH_LIMIT_UNKNOWN_IP },
): Promise<ApiError | null> {
  const bucket = failedAuthBucket(input.ip);
  const [row] = await queryRows<{ count: number | string; reset_seconds: number | string }>(
    db,
    sql`insert into rate_limit_counters as r (bucket, window_start, count)
      values (${bucket}, date_bin(make_interval(secs => ${FAILED_AUTH_WINDOW_SECONDS}::int), now(), timestamptz '2000-01-01'), 1)
      on conflict (bucket) do update set
        count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
        window_start = excluded.window_start
      returning r.count,
        greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => ${FAILED_AUTH_WINDOW_SECONDS}::int) - now()))))::int as reset_seconds`,
  );
  const count = Number(row?.count ?? 1);
  const resetSeconds = Math.max(1, Number(row?.reset_seconds ?? FAILED_AUTH_WINDOW_SECONDS));
  const limit = input.ip ? limits.perIp : limits.unknown;
  const prefix = input.requestId ? `[${input.requestId}] ` : "";
  if (count <= limit) {
    console.warn(`${prefix}API key authentication failed from ${input.ip ?? "an unknown address"}: key ${presentedKeyHint(input.presented)}, ${count} failure(s) this minute`);
    return null;
  }
  if (!input.ip) {
    if (count === limit + 1) {
      console.warn(`${prefix}API key authentication: over ${limit} failures a minute from unknown addresses (set TRUSTED_PROXY_HOPS to limit them per address)`);
    }
    return null;
  }
  if (count === limit + 1) {
    console.warn(`${prefix}API key authentication: ${input.ip} over ${limit} failures a minute, answering 429 for ${resetSeconds} s`);
  }
  if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.clear();
  blockedUntil.set(input.ip, Date.now() + resetSeconds * 1000);
  return tooManyFailedAuthentications(resetSeconds);
}

/** Tests: forget every block of this instance. */
export function resetBlockedAddresses(): void {
  blockedUntil.clear();
}

/**
 * `authenticateApiKey` for a request, with the failures counted: a blocked address is refused
 * before the lookup, and a presented key that does not authenticate is counted and logged (429
 * instead of 401 once the address is over its limit). A request without any key is not counted.
 */
export async function authenticateApiKeyRequest(db: Executor, request: Request, requestId?: string): Promise<AuthenticatedApiKey> {
  const ip = clientIp(request);
  assertNotBlocked(ip);
  try {
    return await authenticateApiKey(db, request.headers);
  } catch (error) {
    if (error instanceof ApiError && error.code === "unauthorized") {
      const presented = readPresentedApiKey(request.headers);
      if (presented !== null) {
        const blocked = await recordFailedAuthentication(db, { ip, presented, requestId });
        if (blocked) throw blocked;
      }
    }
    throw error;
  }
}
