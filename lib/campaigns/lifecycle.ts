// Campaign lifecycle: draft → active ⇄ paused, any → archived. Going live runs the deploy checks.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { ApiError, conflict } from "@/lib/http/errors";
import { getSenderRow, isSenderConfigured } from "@/lib/senders/service";
import { getTemplateRow, templateMatchesProvider } from "@/lib/templates/service";
import { deployChecks } from "./checks";
import type { CampaignStatus } from "./schemas";
import { loadCampaignRow, versionConflict, viewWithTemplate, type CampaignRow, type CampaignView } from "./service";

/** Runs the deploy checks for a campaign as stored; an empty list means it can go live. */
export async function checkCampaign(db: Executor, workspaceId: string, row: CampaignRow) {
  const sender = await getSenderRow(db, workspaceId);
  const template = row.templateId ? await getTemplateRow(db, workspaceId, row.templateId) : null;
  return deployChecks({
    triggerConfig: row.triggerConfig,
    messageConfig: row.messageConfig,
    template: template ? { ...template, availableForSender: templateMatchesProvider(template, sender.provider) } : null,
    sender: { provider: sender.provider, configured: isSenderConfigured(sender) },
  });
}

export interface LifecycleOptions {
  /** The version the caller last saw: a different current version is a 409. */
  version?: number;
  /** Who acts, for the audit row written with the change. */
  actor?: AuditActor;
}

/** The audit row of a status change, in the transaction that made it. */
function auditTransition(tx: Executor, workspaceId: string, before: CampaignRow, after: CampaignRow, actor: AuditActor | undefined) {
  const action = after.status === "active" ? (before.status === "draft" ? "deployed" : "resumed") : after.status;
  return recordAudit(tx, {
    workspaceId,
    actor: actor ?? SYSTEM_ACTOR,
    action: `campaign.${action}`,
    targetType: "campaign",
    targetId: after.id,
    metadata: { name: after.name, from: before.status, to: after.status, version: after.version },
  });
}

async function activate(
  db: Executor,
  workspaceId: string,
  id: string,
  from: CampaignStatus[],
  options: LifecycleOptions,
): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (!from.includes(row.status)) {
      throw conflict(
        row.status === "active" ? "This campaign is already active." : `A ${row.status} campaign cannot be ${from.includes("draft") ? "deployed" : "resumed"}.`,
        "invalid_status_transition",
      );
    }
    if (options.version !== undefined && options.version !== row.version) throw versionConflict(row);
    const errors = await checkCampaign(tx, workspaceId, row);
    if (errors.length > 0) {
      throw new ApiError(
        "deploy_checks_failed",
        `Fix ${errors.length === 1 ? "this problem" : `these ${errors.length} problems`} before the campaign can go live.`,
        { errors },
      );
    }
    const [updated] = await tx
      .update(campaigns)
      .set({
        status: "active",
        version: sql`${campaigns.version} + 1`,
        ...(row.status === "draft" ? { deployedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.workspaceId, workspaceId), inArray(campaigns.status, from), eq(campaigns.version, row.version)))
      .returning();
    if (!updated) throw versionConflict(await loadCampaignRow(tx, workspaceId, id));
    await auditTransition(tx, workspaceId, row, updated, options.actor);
    return viewWithTemplate(tx, updated);
  });
}

/** draft → active, after the deploy checks pass (422 `deploy_checks_failed` with every failure otherwise). */
export function deployCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return activate(db, workspaceId, id, ["draft"], options);
}

/** paused → active; the checks run again because a paused campaign may have been edited. */
export function resumeCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return activate(db, workspaceId, id, ["paused"], options);
}

async function transition(
  db: Executor,
  workspaceId: string,
  id: string,
  to: CampaignStatus,
  from: CampaignStatus[],
  options: LifecycleOptions,
): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (row.status === to) return viewWithTemplate(tx, row);
    if (!from.includes(row.status)) {
      throw conflict(`A ${row.status} campaign cannot be ${to === "paused" ? "paused" : to}.`, "invalid_status_transition");
    }
    if (options.version !== undefined && options.version !== row.version) throw versionConflict(row);
    const [updated] = await tx
      .update(campaigns)
      .set({ status: to, version: sql`${campaigns.version} + 1`, updatedAt: new Date() })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.workspaceId, workspaceId), eq(campaigns.version, row.version)))
      .returning();
    if (!updated) throw versionConflict(await loadCampaignRow(tx, workspaceId, id));
    await auditTransition(tx, workspaceId, row, updated, options.actor);
    return viewWithTemplate(tx, updated);
  });
}

/** active → paused (pausing a paused campaign is a no-op). Trigger calls get 409 while paused. */
export function pauseCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return transition(db, workspaceId, id, "paused", ["active"], options);
}

/** any → archived (archiving twice is a no-op). Archived campaigns keep their messages and logs. */
export function archiveCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return transition(db, workspaceId, id, "archived", ["draft", "active", "paused"], options);
}
