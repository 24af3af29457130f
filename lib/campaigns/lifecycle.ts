// Campaign lifecycle: draft → active ⇄ paused, any → archived → (unarchive) draft. Going live runs
// the deploy checks; so does publishing the draft revision of a live campaign (revision.ts).
import { inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import type { AuditActor } from "@/lib/audit/service";
import { ApiError, conflict } from "@/lib/http/errors";
import { campaignSenderRow, isSenderConfigured } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { deployChecks } from "./checks";
import type { CampaignKind, CampaignStatus } from "./schemas";
import { parseStoredRevision, revisionChanges, type CampaignConfig } from "./revision";
import { liveConfig, loadCampaignRow, viewWithTemplate, type CampaignRow, type CampaignView } from "./service";
import { auditCampaign, expectVersion, updateCampaignRow } from "./versioned";

/** The live columns a revision's configuration is written to. */
function revisionColumns(revision: CampaignConfig) {
  const { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy } = revision;
  return { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy };
}

/** Runs the deploy checks for a configuration (the campaign as stored, or its draft revision); an empty list means it can go live. */
export async function checkCampaign(
  db: Executor,
  workspaceId: string,
  config: Pick<CampaignRow, "triggerConfig" | "messageConfig" | "templateId">,
  senderId: string | null,
) {
  const sender = await campaignSenderRow(db, workspaceId, senderId);
  const template = config.templateId ? await getTemplateRow(db, workspaceId, config.templateId) : null;
  return deployChecks({
    triggerConfig: config.triggerConfig,
    messageConfig: config.messageConfig,
    template: template ? { ...template, availableForSender: templateFitsSender(template, sender) } : null,
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
export function auditTransition(
  tx: Executor,
  before: CampaignRow,
  after: CampaignRow,
  actor: AuditActor | undefined,
  metadata: Record<string, unknown> = {},
) {
  const resumed = before.status === "paused" && (after.status === "active" || after.status === "sending");
  const action = resumed ? "resumed" : after.status === "active" ? "deployed" : after.status;
  return auditCampaign(tx, after, action, actor, { from: before.status, to: after.status, version: after.version, ...metadata });
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
    if (row.kind === "bulk") throw conflict("A bulk campaign is launched or scheduled, not deployed.", "invalid_status_transition");
    if (!from.includes(row.status)) {
      throw conflict(
        row.status === "active" ? "This campaign is already active." : `A ${row.status} campaign cannot be ${from.includes("draft") ? "deployed" : "resumed"}.`,
        "invalid_status_transition",
      );
    }
    expectVersion(row, options.version);
    const errors = await checkCampaign(tx, workspaceId, row, row.senderId);
    if (errors.length > 0) throw checksFailed(errors, "before the campaign can go live");
    const updated = await updateCampaignRow(tx, row, { status: "active", ...(row.status === "draft" ? { deployedAt: new Date() } : {}) }, inArray(campaigns.status, from));
    await auditTransition(tx, row, updated, options.actor);
    return viewWithTemplate(tx, updated);
  });
}

function checksFailed(errors: Awaited<ReturnType<typeof checkCampaign>>, what: string): ApiError {
  return new ApiError("deploy_checks_failed", `Fix ${errors.length === 1 ? "this problem" : `these ${errors.length} problems`} ${what}.`, { errors });
}

/** draft → active, after the deploy checks pass (422 `deploy_checks_failed` with every failure otherwise). */
export function deployCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return activate(db, workspaceId, id, ["draft"], options);
}

/** paused → active; the checks run again because a paused campaign may have been edited. */
export async function resumeCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  if ((await loadCampaignRow(db, workspaceId, id)).kind === "bulk") return transition(db, workspaceId, id, "sending", ["paused"], options);
  return activate(db, workspaceId, id, ["paused"], options);
}

/** Which statuses each target can be reached from, per campaign kind. */
const TRANSITIONS: Record<CampaignKind, Partial<Record<CampaignStatus, CampaignStatus[]>>> = {
  trigger: { paused: ["active"], archived: ["draft", "active", "paused"] },
  bulk: { paused: ["sending"], sending: ["paused"], cancelled: ["scheduled", "sending", "paused"], archived: ["draft", "completed", "cancelled"] },
};

const VERB: Partial<Record<CampaignStatus, string>> = { paused: "paused", sending: "resumed", cancelled: "cancelled", archived: "archived" };

/**
 * A status change without checks: `from` lists where it may start (per kind when omitted);
 * `during` runs in the same transaction after the change (its result goes into the audit row).
 */
export async function transition(
  db: Executor,
  workspaceId: string,
  id: string,
  to: CampaignStatus,
  from: CampaignStatus[] | null,
  options: LifecycleOptions,
  during?: (tx: Executor, row: CampaignRow) => Promise<Record<string, unknown>>,
): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (row.status === to) return viewWithTemplate(tx, row);
    const allowed = TRANSITIONS[row.kind][to] ?? [];
    if (!allowed.includes(row.status) || (from && !from.includes(row.status))) {
      throw conflict(`A ${row.status} ${row.kind} campaign cannot be ${VERB[to] ?? `moved to ${to}`}.`, "invalid_status_transition");
    }
    expectVersion(row, options.version);
    const updated = await updateCampaignRow(tx, row, { status: to });
    const metadata = during ? await during(tx, updated) : {};
    await auditTransition(tx, row, updated, options.actor, metadata);
    return viewWithTemplate(tx, updated);
  });
}

/** active → paused for trigger campaigns (trigger calls get 409 while paused), sending → paused for bulk ones. Pausing twice is a no-op. */
export function pauseCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return transition(db, workspaceId, id, "paused", null, options);
}

/** → archived (archiving twice is a no-op): trigger campaigns from any status, bulk ones unless scheduled or sending. Archived campaigns keep their messages and logs. */
export function archiveCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return transition(db, workspaceId, id, "archived", null, options);
}

/**
 * Puts the draft revision live: the deploy checks run on the revision (422 `deploy_checks_failed`,
 * nothing changes), then one UPDATE copies it onto the columns triggers read, clears it and bumps
 * the version, with the `campaign.published` audit row in the same transaction. A trigger request
 * reads the row in one statement, so it sees the old configuration or the new one, never a mix.
 */
export async function publishRevision(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    expectVersion(row, options.version);
    const revision = row.kind === "trigger" ? parseStoredRevision(row.draftRevision) : null;
    if (!revision) throw new ApiError("nothing_to_publish", "This campaign has no unpublished changes.");
    if (row.status !== "active" && row.status !== "paused") {
      throw conflict(`A ${row.status} campaign has no live configuration to publish to.`, "invalid_status_transition");
    }
    const errors = await checkCampaign(tx, workspaceId, revision, row.senderId);
    if (errors.length > 0) throw checksFailed(errors, "before the changes can be published");
    const changes = revisionChanges(liveConfig(row), revision);
    const updated = await updateCampaignRow(tx, row, { ...revisionColumns(revision), draftRevision: null });
    await auditCampaign(tx, updated, "published", options.actor, { status: updated.status, version: updated.version, changes });
    return viewWithTemplate(tx, updated);
  });
}

/** Drops the draft revision; the live configuration stays. Without a revision nothing changes. */
export async function discardRevision(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    expectVersion(row, options.version);
    if (row.draftRevision === null) return viewWithTemplate(tx, row);
    const updated = await updateCampaignRow(tx, row, { draftRevision: null });
    await auditCampaign(tx, updated, "changes_discarded", options.actor, { version: updated.version });
    return viewWithTemplate(tx, updated);
  });
}

/**
 * archived → draft. A trigger campaign comes back as a draft to edit and deploy again: its
 * deployment is cleared, and pending edits of its draft revision become the draft's configuration.
 * A bulk campaign comes back as a draft if it never launched (its schedule cleared), otherwise as
 * `completed` or `cancelled`, so it can never send to its audience twice.
 */
export async function unarchiveCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (row.status !== "archived") throw conflict(`Only archived campaigns can be unarchived; this one is ${row.status}.`, "invalid_status_transition");
    expectVersion(row, options.version);
    const revision = row.kind === "trigger" ? parseStoredRevision(row.draftRevision) : null;
    const to: CampaignStatus = row.kind === "trigger" || !row.launchedAt ? "draft" : row.completedAt ? "completed" : "cancelled";
    const updated = await updateCampaignRow(tx, row, {
      status: to,
      ...(row.kind === "trigger" ? { deployedAt: null, draftRevision: null } : {}),
      ...(revision ? revisionColumns(revision) : {}),
      ...(row.kind === "bulk" && to === "draft" ? { scheduledAt: null, scheduleTimeZone: null } : {}),
    });
    await auditCampaign(tx, updated, "unarchived", options.actor, { from: row.status, to: updated.status, version: updated.version, revisionApplied: revision !== null });
    return viewWithTemplate(tx, updated);
  });
}
