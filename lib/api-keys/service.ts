import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { apiKeys, users } from "@/db/schema";
import { auditRow, recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { ApiError, notFound } from "@/lib/http/errors";
import { displayApiKey, generateApiKey, hashApiKey } from "./format";
import { createApiKeySchema, type ApiKeyListItem, type CreatedApiKey } from "./schemas";

export { auditActorFromRequest, type AuditActor } from "@/lib/audit/service";

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
    await recordAudit(tx, keyAudit("api_key.created", workspaceId, actor, { id, name, displayKey }));
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
    await recordAudit(tx, keyAudit("api_key.deleted", workspaceId, actor, deleted));
  });
}

function keyAudit(
  action: "api_key.created" | "api_key.deleted",
  workspaceId: string,
  actor: AuditActor,
  key: { id: string; name: string; displayKey: string },
): Parameters<typeof auditRow>[0] {
  return { workspaceId, actor, action, targetType: "api_key", targetId: key.id, metadata: { name: key.name, displayKey: key.displayKey } };
}
