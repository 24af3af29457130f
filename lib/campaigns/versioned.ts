// Every change to a campaign row is versioned: the caller may say which version it last saw, the
// UPDATE only applies to the version that was read, and the change is audited in its transaction.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import type { CampaignAuditAction } from "@/lib/audit/actions";
import { ApiError } from "@/lib/http/errors";

type CampaignRow = typeof campaigns.$inferSelect;

export function versionConflict(current: { version: number }): ApiError {
  return new ApiError(
    "version_conflict",
    `The campaign was changed elsewhere (now version ${current.version}). Reload it and apply your changes again.`,
    { extensions: { currentVersion: current.version } },
  );
}

/** A 409 when the caller said which version it last saw and the campaign is at another one. */
export function expectVersion(row: CampaignRow, version: number | undefined): void {
  if (version !== undefined && version !== row.version) throw versionConflict(row);
}

/**
 * Writes `changes` to the campaign as it was read, bumping its version. A row changed in the
 * meantime, or no longer matching `also`, is a 409 naming its current version.
 */
export async function updateCampaignRow(tx: Executor, row: CampaignRow, changes: Partial<typeof campaigns.$inferInsert>, also?: SQL): Promise<CampaignRow> {
  const [updated] = await tx
    .update(campaigns)
    .set({ ...changes, version: sql`${campaigns.version} + 1`, updatedAt: changes.updatedAt ?? new Date() })
    .where(and(eq(campaigns.id, row.id), eq(campaigns.workspaceId, row.workspaceId), eq(campaigns.version, row.version), also))
    .returning();
  if (updated) return updated;
  const [current] = await tx.select({ version: campaigns.version }).from(campaigns).where(eq(campaigns.id, row.id));
  throw versionConflict(current ?? row);
}

/** The audit row `campaign.<action>` of a change, in the transaction that made it. */
export function auditCampaign(
  tx: Executor,
  campaign: CampaignRow,
  action: CampaignAuditAction,
  actor: AuditActor | undefined,
  metadata: Record<string, unknown> = {},
) {
  return recordAudit(tx, {
    workspaceId: campaign.workspaceId,
    actor: actor ?? SYSTEM_ACTOR,
    action: `campaign.${action}`,
    targetType: "campaign",
    targetId: campaign.id,
    metadata: { name: campaign.name, ...metadata },
  });
}
