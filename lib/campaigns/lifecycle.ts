// The campaign lifecycle skeleton: the actions every campaign has, optimistic versioning, audited
// status changes checked against the kind's transitions table, and the draft revision of a live
// campaign (revision.ts: publish, discard). What differs per kind (deploy, resume, where unarchive
// leads, which checks gate going live) is the kind's (kinds.ts): lib/trigger, lib/bulk.
import type { Executor } from "@/db";
import type { AuditActor } from "@/lib/audit/service";
import { ApiError, conflict, type FieldError } from "@/lib/http/errors";
import { campaignKind, type CampaignAction, type LifecycleHandler } from "./kinds";
import type { CampaignStatus } from "./schemas";
import { parseStoredRevision, revisionChanges, type CampaignConfig } from "./revision";
import { liveConfig, loadCampaignRow, viewWithTemplate, type CampaignRow, type CampaignView } from "./service";
import { auditCampaign, expectVersion, updateCampaignRow } from "./versioned";

/** The live columns a revision's configuration is written to. */
export function revisionColumns(revision: CampaignConfig) {
  const { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy } = revision;
  return { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy };
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

/** 422 `deploy_checks_failed` with every failing check. */
export function checksFailed(errors: FieldError[], what: string): ApiError {
  return new ApiError("deploy_checks_failed", `Fix ${errors.length === 1 ? "this problem" : `these ${errors.length} problems`} ${what}.`, { errors });
}

/**
 * Runs a lifecycle action through the campaign's kind: the kind's own handler, else the skeleton's;
 * an action the kind does not have answers the kind's problem (e.g. deploying a bulk campaign: 409).
 */
export async function runLifecycleAction(
  db: Executor,
  workspaceId: string,
  id: string,
  action: CampaignAction,
  options: LifecycleOptions = {},
): Promise<CampaignView> {
  const kind = campaignKind((await loadCampaignRow(db, workspaceId, id)).kind);
  const run = kind.lifecycle.actions[action] ?? SKELETON_ACTIONS[action];
  if (!run) throw kind.lifecycle.unsupported(action);
  return run(db, workspaceId, id, options);
}

/** Trigger campaigns: draft → active, after the deploy checks pass (422 `deploy_checks_failed` with every failure otherwise). */
export function deployCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "deploy", options);
}

/** paused → active (trigger campaigns, checks again) or sending (bulk campaigns). */
export function resumeCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "resume", options);
}

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
    const allowed = campaignKind(row.kind).lifecycle.transitions[to] ?? [];
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
  return runLifecycleAction(db, workspaceId, id, "pause", options);
}

/** → archived (archiving twice is a no-op): trigger campaigns from any status, bulk ones unless scheduled or sending. Archived campaigns keep their messages and logs. */
export function archiveCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "archive", options);
}

/**
 * Puts the draft revision live: the deploy checks run on the revision (422 `deploy_checks_failed`,
 * nothing changes), then one UPDATE copies it onto the columns triggers read, clears it and bumps
 * the version, with the `campaign.published` audit row in the same transaction. A trigger request
 * reads the row in one statement, so it sees the old configuration or the new one, never a mix.
 */
export function publishRevision(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "publish", options);
}

async function publish(db: Executor, workspaceId: string, id: string, options: LifecycleOptions): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    expectVersion(row, options.version);
    const revision = parseStoredRevision(row.draftRevision);
    if (!revision) throw new ApiError("nothing_to_publish", "This campaign has no unpublished changes.");
    if (row.status !== "active" && row.status !== "paused") {
      throw conflict(`A ${row.status} campaign has no live configuration to publish to.`, "invalid_status_transition");
    }
    const errors = await campaignKind(row.kind).checks(tx, workspaceId, { ...row, ...revisionColumns(revision) });
    if (errors.length > 0) throw checksFailed(errors, "before the changes can be published");
    const changes = revisionChanges(liveConfig(row), revision);
    const updated = await updateCampaignRow(tx, row, { ...revisionColumns(revision), draftRevision: null });
    await campaignKind(row.kind).lifecycle.published?.(tx, updated);
    await auditCampaign(tx, updated, "published", options.actor, { status: updated.status, version: updated.version, changes });
    return viewWithTemplate(tx, updated);
  });
}

/** Drops the draft revision; the live configuration stays. Without a revision nothing changes. */
export function discardRevision(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "discard", options);
}

async function discard(db: Executor, workspaceId: string, id: string, options: LifecycleOptions): Promise<CampaignView> {
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
 * archived → where the kind says (kinds.ts `lifecycle.unarchive`): a trigger campaign comes back as
 * a draft to edit and deploy again, pending edits of its draft revision becoming the draft's
 * configuration; a bulk campaign as a draft if it never launched, otherwise as `completed` or
 * `cancelled`, so it can never send to its audience twice.
 */
export function unarchiveCampaign(db: Executor, workspaceId: string, id: string, options: LifecycleOptions = {}): Promise<CampaignView> {
  return runLifecycleAction(db, workspaceId, id, "unarchive", options);
}

async function unarchive(db: Executor, workspaceId: string, id: string, options: LifecycleOptions): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (row.status !== "archived") throw conflict(`Only archived campaigns can be unarchived; this one is ${row.status}.`, "invalid_status_transition");
    expectVersion(row, options.version);
    const revision = parseStoredRevision(row.draftRevision);
    const { to, columns } = campaignKind(row.kind).lifecycle.unarchive(row);
    const updated = await updateCampaignRow(tx, row, {
      status: to,
      ...columns,
      ...(revision ? { ...revisionColumns(revision), draftRevision: null } : {}),
    });
    await auditCampaign(tx, updated, "unarchived", options.actor, { from: row.status, to: updated.status, version: updated.version, revisionApplied: revision !== null });
    return viewWithTemplate(tx, updated);
  });
}

/** The skeleton's actions, the same for every kind; a kind's own handler of the same action comes first. */
const SKELETON_ACTIONS: Partial<Record<CampaignAction, LifecycleHandler>> = {
  pause: (db, workspaceId, id, options) => transition(db, workspaceId, id, "paused", null, options),
  archive: (db, workspaceId, id, options) => transition(db, workspaceId, id, "archived", null, options),
  unarchive,
  publish,
  discard,
};
