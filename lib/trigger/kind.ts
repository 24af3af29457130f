// The trigger campaign kind (lib/campaigns/kinds.ts): a campaign that sends one template message
// each time its webhook is called. draft → (deploy, checks pass) → active ⇄ paused; edits of a
// live campaign go into its draft revision; archived → draft, deployment cleared.
import { inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns } from "@/db/schema";
import type { CampaignAction, CampaignKindDefinition } from "@/lib/campaigns/kinds";
import { auditTransition, checksFailed, type LifecycleOptions } from "@/lib/campaigns/lifecycle";
import { parseStoredRevision } from "@/lib/campaigns/revision";
import type { CampaignStatus } from "@/lib/campaigns/schemas";
import { loadCampaignRow, viewWithTemplate, type CampaignRow, type CampaignView } from "@/lib/campaigns/service";
import { expectVersion, updateCampaignRow } from "@/lib/campaigns/versioned";
import { conflict, validationFailed, type FieldError } from "@/lib/http/errors";
import { campaignSenderRow, isSenderConfigured } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { recordJourneyVersion } from "@/lib/journeys/versions";
import { deployChecks } from "./checks";
import { sendTriggerTest } from "./test-send";

/** Runs the deploy checks for a configuration (the campaign as stored, or its draft revision); an empty list means it can go live. */
export async function checkCampaign(
  db: Executor,
  workspaceId: string,
  config: Pick<CampaignRow, "triggerConfig" | "messageConfig" | "templateId" | "senderId">,
): Promise<FieldError[]> {
  const sender = await campaignSenderRow(db, workspaceId, config.senderId);
  const template = config.templateId ? await getTemplateRow(db, workspaceId, config.templateId) : null;
  return deployChecks({
    triggerConfig: config.triggerConfig,
    messageConfig: config.messageConfig,
    template: template ? { ...template, availableForSender: templateFitsSender(template, sender) } : null,
    sender: { provider: sender.provider, configured: isSenderConfigured(sender) },
  });
}

/** → active from `from` (draft: deploy, paused: resume), after the deploy checks pass. */
async function activate(db: Executor, workspaceId: string, id: string, from: CampaignStatus[], options: LifecycleOptions): Promise<CampaignView> {
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (!from.includes(row.status)) {
      throw conflict(
        row.status === "active" ? "This campaign is already active." : `A ${row.status} campaign cannot be ${from.includes("draft") ? "deployed" : "resumed"}.`,
        "invalid_status_transition",
      );
    }
    expectVersion(row, options.version);
    const errors = await checkCampaign(tx, workspaceId, row);
    if (errors.length > 0) throw checksFailed(errors, "before the campaign can go live");
    const updated = await updateCampaignRow(tx, row, { status: "active", ...(row.status === "draft" ? { deployedAt: new Date() } : {}) }, inArray(campaigns.status, from));
    // New runs enter the journey as it goes live (a new version only when it changed).
    await recordJourneyVersion(tx, id);
    await auditTransition(tx, row, updated, options.actor);
    return viewWithTemplate(tx, updated);
  });
}

const EDITABLE_STATUSES: CampaignStatus[] = ["draft", "paused"];

export const triggerKind: CampaignKindDefinition = {
  name: "trigger",

  checks: checkCampaign,

  lifecycle: {
    transitions: { paused: ["active"], archived: ["draft", "active", "paused"] },
    actions: {
      /** draft → active, after the deploy checks pass (422 `deploy_checks_failed` with every failure otherwise). */
      deploy: (db, workspaceId, id, options) => activate(db, workspaceId, id, ["draft"], options),
      /** paused → active; the checks run again because a paused campaign may have been edited. */
      resume: (db, workspaceId, id, options) => activate(db, workspaceId, id, ["paused"], options),
    },
    published: async (db, row) => {
      await recordJourneyVersion(db, row.id);
    },
    unsupported: (action: CampaignAction) => conflict(`A trigger campaign has no ${action} action.`, "invalid_status_transition"),
    // Its webhook URLs stay the same; it is deployed again like any draft.
    unarchive: () => ({ to: "draft", columns: { deployedAt: null, draftRevision: null } }),
  },

  edits: {
    statuses: EDITABLE_STATUSES,
    notEditable: (row) => `This campaign is ${row.status} and can no longer be edited.`,
    members: ["triggerConfig", "rateLimitPerMinute", "respectOptOut"],
    /** Live, or paused with edits pending: triggers keep the live configuration until the revision is published. */
    intoRevision: (row) => row.status === "active" || (row.status === "paused" && parseStoredRevision(row.draftRevision) !== null),
    async check(db, workspaceId, changes) {
      if (!changes.templateId) return;
      const template = await getTemplateRow(db, workspaceId, changes.templateId);
      if (!template) throw validationFailed([{ path: "templateId", code: "not_found", message: "No template with this id exists in your workspace." }]);
    },
  },

  create: {
    // The builder picks the template and mapping after creation.
    check: async () => {},
    columns: () => ({}),
  },

  view: {
    members: () => ({}),
    absent: {},
    deployed: (campaign) => campaign.status === "active" || campaign.status === "paused",
    activityFunnel: true,
    editPage: false,
  },

  sendTest: sendTriggerTest,

  // As the trigger endpoint answers a bulk campaign (service.ts, on its context row).
  otherKind: () => conflict("This is a bulk campaign; only trigger campaigns accept trigger requests. Nothing was sent.", "not_a_trigger_campaign"),
};
