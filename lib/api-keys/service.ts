import { and, count, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { apiKeys, campaigns, users } from "@/db/schema";
import { auditRow, recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { displayApiKey, generateApiKey, hashApiKey } from "./format";
import { createApiKeySchema, type ApiKeyListItem, type ApiKeyScope, type CreatedApiKey } from "./schemas";

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
      scope: apiKeys.scope,
      campaignIds: apiKeys.campaignIds,
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
    scope: scopeOf(row),
  }));
}

/** The campaigns a trigger-only key can be limited to: the workspace's trigger campaigns not archived. */
export async function listScopableCampaigns(db: Executor, workspaceId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.kind, "trigger"), ne(campaigns.status, "archived")))
    .orderBy(campaigns.name, campaigns.id);
}

/** A key row's scope columns as the API shows them. */
export function scopeOf(row: { scope: "full" | "trigger"; campaignIds: string[] }): ApiKeyScope {
  return row.scope === "trigger" ? { type: "trigger", campaignIds: row.campaignIds } : { type: "full" };
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
  const { name, scope: requested } = createApiKeySchema.parse(input);
  const scope: ApiKeyScope = requested && requested !== "full" ? { type: "trigger", campaignIds: [...new Set(requested.campaignIds)] } : { type: "full" };
  const key = generateApiKey();
  const id = newId("key");
  const displayKey = displayApiKey(key);
  return db.transaction(async (tx) => {
    if (scope.type === "trigger") await assertWorkspaceCampaigns(tx, workspaceId, scope.campaignIds);
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
      .values({
        id,
        workspaceId,
        name,
        keyHash: hashApiKey(key),
        displayKey,
        createdBy: actor.userId,
        scope: scope.type,
        campaignIds: scope.type === "trigger" ? scope.campaignIds : [],
      })
      .returning({ createdAt: apiKeys.createdAt });
    const audit = keyAudit("api_key.created", workspaceId, actor, { id, name, displayKey });
    await recordAudit(tx, { ...audit, metadata: { ...audit.metadata, scope } });
    return { id, name, key, displayKey, createdAt: row!.createdAt.toISOString(), scope };
  });
}

/** A trigger-only key names campaigns of its own workspace; another workspace's are unknown ids. */
async function assertWorkspaceCampaigns(db: Executor, workspaceId: string, campaignIds: string[]): Promise<void> {
  const found = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), inArray(campaigns.id, campaignIds)));
  const known = new Set(found.map((row) => row.id));
  const errors = campaignIds.flatMap((campaignId, index) =>
    known.has(campaignId) ? [] : [{ path: `scope.campaignIds[${index}]`, code: "not_found", message: "No campaign with this id exists in your workspace." }],
  );
  if (errors.length > 0) throw validationFailed(errors);
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
