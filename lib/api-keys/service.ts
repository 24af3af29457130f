import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { apiKeys, auditEvents, users } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import type { Actor } from "@/lib/workspaces";
import { ApiError, notFound } from "@/lib/http/errors";
import { displayApiKey, generateApiKey, hashApiKey } from "./format";
import { createApiKeySchema, type ApiKeyListItem, type CreatedApiKey } from "./schemas";

/** Who did it, for the audit trail: a user, or an API key acting for the workspace. */
export interface AuditActor {
  userId: string | null;
  apiKeyId?: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Enough for any real set of integrations, small enough that a leaked session cannot mint thousands. */
export const MAX_ACTIVE_KEYS_PER_WORKSPACE = 100;

const KEY_NOT_FOUND = "No API key with this id exists in your workspace.";

export async function listApiKeys(db: Executor, workspaceId: string): Promise<ApiKeyListItem[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      displayKey: apiKeys.displayKey,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      createdById: users.id,
      createdByName: users.name,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.deletedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    displayKey: row.displayKey,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdBy: row.createdById && row.createdByName ? { id: row.createdById, name: row.createdByName } : null,
  }));
}

/**
 * Creates a key and its audit row in one transaction. The returned `key` is the only copy that
 * will ever exist outside the caller's hands: only its SHA-256 is stored.
 */
export async function createApiKey(
  db: Executor,
  workspaceId: string,
  actor: AuditActor,
  input: unknown,
): Promise<CreatedApiKey> {
  const { name } = createApiKeySchema.parse(input);
  const key = generateApiKey();
  const id = newId("key");
  const displayKey = displayApiKey(key);
  return db.transaction(async (tx) => {
    const [counted] = await tx
      .select({ active: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.deletedAt)));
    if ((counted?.active ?? 0) >= MAX_ACTIVE_KEYS_PER_WORKSPACE) {
      throw new ApiError(
        "api_key_limit_reached",
        `A workspace can have at most ${MAX_ACTIVE_KEYS_PER_WORKSPACE} API keys. Delete keys you no longer use first.`,
      );
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({ id, workspaceId, name, keyHash: hashApiKey(key), displayKey, createdBy: actor.userId })
      .returning({ createdAt: apiKeys.createdAt });
    await tx.insert(auditEvents).values(auditRow("api_key.created", workspaceId, actor, { id, name, displayKey }));
    return { id, name, key, displayKey, createdAt: row!.createdAt.toISOString() };
  });
}

/**
 * Soft-deletes a key and writes the audit row in one transaction; once this resolves, every
 * request with the key gets 401. Another workspace's key, or one already deleted, is 404.
 */
export async function deleteApiKey(db: Executor, workspaceId: string, actor: AuditActor, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .update(apiKeys)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.deletedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, displayKey: apiKeys.displayKey });
    if (!deleted) throw notFound(KEY_NOT_FOUND);
    await tx.insert(auditEvents).values(auditRow("api_key.deleted", workspaceId, actor, deleted));
  });
}

function auditRow(
  action: "api_key.created" | "api_key.deleted",
  workspaceId: string,
  actor: AuditActor,
  key: { id: string; name: string; displayKey: string },
): typeof auditEvents.$inferInsert {
  return {
    id: newId("evt"),
    workspaceId,
    actorUserId: actor.userId,
    actorApiKeyId: actor.apiKeyId ?? null,
    action,
    targetType: "api_key",
    targetId: key.id,
    metadata: { name: key.name, displayKey: key.displayKey },
    ip: actor.ip,
    userAgent: actor.userAgent,
  };
}

/** The actor of a request with its client address and user agent, for audit rows (first hop of X-Forwarded-For). */
export function auditActorFromRequest(request: Request, actor: Actor): AuditActor {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || request.headers.get("x-real-ip")?.trim() || null;
  const userAgent = request.headers.get("user-agent");
  return {
    userId: actor.type === "user" ? actor.id : null,
    apiKeyId: actor.type === "api_key" ? actor.id : null,
    ip: ip ? ip.slice(0, 64) : null,
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
  };
}
