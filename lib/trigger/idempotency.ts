// `Idempotency-Key` for trigger requests: the first accepted response is stored per campaign and
// key for 24 hours; a retry with the same body gets it back, a different body gets a 422. A signed
// source's delivery id is a key too (`source:<id>`), kept 72 hours: shops retry for longer.
import { sql, SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { sha256Hex } from "@/lib/crypto/secrets";
import { ApiError, badRequest } from "@/lib/http/errors";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** Keys of signed deliveries: `source:` + the sender's delivery id. */
export const SOURCE_KEY_PREFIX = "source:";
export const SOURCE_DELIVERY_WINDOW_HOURS = 72;

/** A key and how long its first response answers. */
export interface IdempotencyKey {
  key: string;
  windowHours: number;
  /**
   * An Idempotency-Key reused with another body is a client bug (422). A signed delivery id is the
   * shop's own name for one event: a repeat always gets the first result, whatever its body, so a
   * shop never retries a 4xx for days.
   */
  sameBodyRequired: boolean;
}

export const headerKey = (key: string): IdempotencyKey => ({ key, windowHours: IDEMPOTENCY_WINDOW_HOURS, sameBodyRequired: true });
export const deliveryKey = (deliveryId: string): IdempotencyKey => ({ key: SOURCE_KEY_PREFIX + deliveryId, windowHours: SOURCE_DELIVERY_WINDOW_HOURS, sameBodyRequired: false });

const hours = (n: number) => sql.raw(`interval '${Math.trunc(n)} hours'`);
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface StoredResponse {
  requestHash: string;
  status: number;
  body: unknown;
}

/** The header's value, or null when absent; a blank, over-long or non-printable value is a 400. */
export function parseIdempotencyKey(headers: Headers): string | null {
  const value = headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  if (value.trim() === "" || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(value)) {
    throw badRequest(
      `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters (a UUID works well).`,
      "invalid_idempotency_key",
    );
  }
  return value;
}

/** Fingerprint of a request: SHA-256 of the raw body bytes. */
export function requestFingerprint(raw: Uint8Array): string {
  return sha256Hex(raw);
}

/**
 * Selects the live (inside its window) stored response for a campaign and key as
 * `request_hash, response_status, response_body`; usable as a subquery.
 */
export function storedResponseSql(campaignId: string, key: IdempotencyKey): SQL {
  return sql`select request_hash, response_status, response_body from idempotency_keys
    where campaign_id = ${campaignId} and key = ${key.key}
      and created_at > now() - ${hours(key.windowHours)}`;
}

export async function findStoredResponse(db: Executor, campaignId: string, key: IdempotencyKey): Promise<StoredResponse | null> {
  const [row] = await queryRows<{ request_hash: string; response_status: number; response_body: unknown }>(db, storedResponseSql(campaignId, key));
  return row ? { requestHash: row.request_hash, status: Number(row.response_status), body: row.response_body } : null;
}

/**
 * Claims the key by storing the response, as a CTE of the statement that inserts the messages:
 * yields a row only when this request is the first (or the previous claim expired), so the
 * messages insert can depend on it and a concurrent duplicate inserts nothing.
 */
export function claimKeySql(input: { campaignId: string; key: IdempotencyKey; requestHash: string; status: number; body: unknown }): SQL {
  // A body computed by the statement itself (a journey's answers, decided by its re-entry rule) comes as SQL.
  const body = input.body instanceof SQL ? input.body : sql`${JSON.stringify(input.body)}::jsonb`;
  return sql`insert into idempotency_keys as i (campaign_id, key, request_hash, response_status, response_body)
    values (${input.campaignId}, ${input.key.key}, ${input.requestHash}, ${input.status}, ${body})
    on conflict (campaign_id, key) do update set
      request_hash = excluded.request_hash,
      response_status = excluded.response_status,
      response_body = excluded.response_body,
      created_at = now()
    where i.created_at <= now() - ${hours(input.key.windowHours)}
    returning 1 as claimed`;
}

/** The stored response again, or a 422 when the key was first used with another body. */
export function replayStoredResponse(stored: StoredResponse, requestHash: string): { status: number; body: unknown; headers: Record<string, string> } {
  if (stored.requestHash !== requestHash) {
    throw new ApiError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used on this campaign with a different request body. Use a new key for a new request.",
    );
  }
  return { status: stored.status, body: stored.body, headers: { "Idempotent-Replay": "true" } };
}

/** Deletes stored responses past their window. */
export async function pruneIdempotencyKeys(db: Executor): Promise<void> {
  await db.execute(sql`delete from idempotency_keys
    where created_at <= now() - ${hours(IDEMPOTENCY_WINDOW_HOURS)}
      and (created_at <= now() - ${hours(SOURCE_DELIVERY_WINDOW_HOURS)} or left(key, ${SOURCE_KEY_PREFIX.length}) <> ${SOURCE_KEY_PREFIX})`);
}
