import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { apiKeys } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { hashApiKey, isWellFormedApiKey } from "./format";
import type { ApiKeyScope } from "./schemas";

/** The key a request authenticated with. Never carries the key itself or its hash. */
export interface AuthenticatedApiKey {
  id: string;
  name: string;
  workspaceId: string;
  /** As read during authentication; decides whether "last used" needs a write. */
  lastUsedAt: Date | null;
  scope: ApiKeyScope;
}

/** Anything with `get(name)`: a Fetch `Headers`, or a plain reader in tests. */
export interface HeaderReader {
  get(name: string): string | null;
}

export const API_KEY_HEADER = "x-api-key";
export const WWW_AUTHENTICATE_REALM = 'Bearer realm="sendstream"';

/** "Last used" is kept accurate to this much; within it, successful requests write nothing. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

/**
 * One 401 for every failure (missing, malformed, bad checksum, unknown, deleted): the same status,
 * body and headers, so a caller learns nothing about which keys exist. Only `WWW-Authenticate`
 * differs, as RFC 6750 asks, between "no credentials" and "credentials that did not work".
 */
export function apiKeyUnauthorized(credentialsSent: boolean): ApiError {
  return new ApiError(
    "unauthorized",
    "A valid API key is required. Send it in the x-api-key header or as Authorization: Bearer <key>.",
    {
      headers: {
        "WWW-Authenticate": credentialsSent ? `${WWW_AUTHENTICATE_REALM}, error="invalid_token"` : WWW_AUTHENTICATE_REALM,
        "Cache-Control": "no-store",
      },
    },
  );
}

function conflictingCredentials(): ApiError {
  return new ApiError(
    "conflicting_api_keys",
    "The x-api-key header and the Authorization: Bearer header carry different keys. Send one key.",
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The credential a request presents, from `x-api-key` or `Authorization: Bearer` (scheme matched
 * case-insensitively). Values are taken exactly as received: nothing is trimmed, so a key with
 * stray characters around it is malformed. The query string is never consulted.
 * Returns null when neither header carries a key; throws 400 when the two disagree.
 */
export function readPresentedApiKey(headers: HeaderReader): string | null {
  const fromHeader = headers.get(API_KEY_HEADER);
  const fromBearer = bearerCredential(headers.get("authorization"));
  if (fromHeader !== null && fromBearer !== null && fromHeader !== fromBearer) throw conflictingCredentials();
  return fromHeader ?? fromBearer;
}

function bearerCredential(authorization: string | null): string | null {
  if (authorization === null) return null;
  const match = /^bearer(?: +|$)/i.exec(authorization);
  // Another scheme (Basic, …) is not an API key credential.
  return match ? authorization.slice(match[0].length) : null;
}

/**
 * The one authentication used by every key-authenticated route. Shape and checksum are checked
 * before any database read; the lookup is by SHA-256 hash among keys that are not deleted, on
 * every request (no cache, so a delete takes effect on the very next request).
 * Throws the 401 / 400 ApiError on failure.
 */
export async function authenticateApiKey(db: Executor, headers: HeaderReader): Promise<AuthenticatedApiKey> {
  const presented = readPresentedApiKey(headers);
  if (presented === null) throw apiKeyUnauthorized(false);
  if (!isWellFormedApiKey(presented)) throw apiKeyUnauthorized(true);
  // A named prepared statement: the one query every key-authenticated request makes.
  const [key] = await queryRows<ApiKeyRow>(
    db,
    sql`select "id", "name", "workspace_id", floor(extract(epoch from "last_used_at") * 1000)::float8 as last_used_ms, "scope", "campaign_ids"
      from "api_keys" where "key_hash" = ${hashApiKey(presented)} and "deleted_at" is null limit 1`,
    { prepared: true },
  );
  if (!key) throw apiKeyUnauthorized(true);
  return {
    id: key.id,
    name: key.name,
    workspaceId: key.workspace_id,
    lastUsedAt: key.last_used_ms === null ? null : new Date(Number(key.last_used_ms)),
    scope: key.scope === "trigger" ? { type: "trigger", campaignIds: key.campaign_ids } : { type: "full" },
  };
}

interface ApiKeyRow {
  id: string;
  name: string;
  workspace_id: string;
  last_used_ms: number | string | null;
  scope: "full" | "trigger";
  campaign_ids: string[];
}

/** Whether the "last used" value read during authentication is stale enough to be written. */
export function lastUsedIsStale(lastUsedAt: Date | null, now: Date = new Date()): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000;
}

/**
 * Records a successful use, at most about once a minute per key across all instances: nothing is
 * written when the value read during authentication is fresh, and the conditional UPDATE turns
 * concurrent writers into no-ops. A deleted key's row is never touched; the time never goes back.
 * Run it after the response is sent.
 */
export async function recordApiKeyUse(db: Executor, key: Pick<AuthenticatedApiKey, "id" | "lastUsedAt">): Promise<void> {
  if (!lastUsedIsStale(key.lastUsedAt)) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, key.id),
        isNull(apiKeys.deletedAt),
        or(
          isNull(apiKeys.lastUsedAt),
          lt(apiKeys.lastUsedAt, sql`now() - ${sql.raw(`interval '${LAST_USED_RESOLUTION_SECONDS} seconds'`)}`),
        ),
      ),
    );
}
