// The bulk campaign kind (lib/campaigns/kinds.ts): one template message to every contact of an
// audience, once. Launched or scheduled (launch.ts), never deployed; sending ⇄ paused, cancelled
// (lifecycle.ts); archived → draft if it never launched, else back to completed / cancelled.
import type { Executor } from "@/db";
import type { CampaignAction, CampaignKindDefinition } from "@/lib/campaigns/kinds";
import { transition } from "@/lib/campaigns/lifecycle";
import type { BulkAudience, CampaignStatus } from "@/lib/campaigns/schemas";
import type { CampaignRow } from "@/lib/campaigns/service";
import { conflict, validationFailed } from "@/lib/http/errors";
import { campaignSenderRow } from "@/lib/senders/service";
import { getTemplateRow } from "@/lib/templates/service";
import { bulkAudienceSql, isAudienceEmpty, parseStoredAudience } from "./audience";
import { launchErrors } from "./launch";
import { assertTemplateNotBlocked } from "./template-hold";
import type { BulkSettings } from "./schemas";
import { sendBulkTest } from "./test-send";

declare module "@/lib/campaigns/kinds" {
  interface CampaignKindMembers {
    /** Bulk campaigns: audience, rate, schedule, launch and completion; null for trigger campaigns. */
    bulk: BulkSettings | null;
  }
}

function bulkSettings(row: CampaignRow): BulkSettings {
  return {
    audience: parseStoredAudience(row.audience),
    sendRatePerSecond: row.sendRatePerSecond,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    timeZone: row.scheduleTimeZone,
    allowTierWait: row.allowTierWait,
    launchedAt: row.launchedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    scheduleMissed: row.status === "draft" && row.scheduledAt !== null,
  };
}

/** A bulk campaign's references exist in the workspace (404 otherwise) and its rate fits the sender. */
async function checkBulkSettings(
  db: Executor,
  workspaceId: string,
  settings: { audience?: BulkAudience; templateId?: string | null; sendRatePerSecond?: number | null; senderId?: string | null },
): Promise<void> {
  if (settings.audience && !isAudienceEmpty(settings.audience)) await bulkAudienceSql(db, workspaceId, settings.audience);
  if (settings.templateId) {
    const template = await getTemplateRow(db, workspaceId, settings.templateId);
    if (!template) throw validationFailed([{ path: "templateId", code: "not_found", message: "No template with this id exists in your workspace." }]);
  }
  if (settings.sendRatePerSecond) {
    const sender = await campaignSenderRow(db, workspaceId, settings.senderId);
    if (settings.sendRatePerSecond > sender.throughputPerSecond) {
      throw validationFailed([
        {
          path: "sendRatePerSecond",
          code: "above_throughput",
          message: `The sender sends at most ${sender.throughputPerSecond} messages per second; pick that or less.`,
        },
      ]);
    }
  }
}

/** Bulk campaigns change only before they start sending. */
const EDITABLE_STATUSES: CampaignStatus[] = ["draft", "scheduled"];

export const bulkKind: CampaignKindDefinition = {
  name: "bulk",

  checks: (db, workspaceId, row) => launchErrors(db, workspaceId, row),

  lifecycle: {
    transitions: { paused: ["sending"], sending: ["paused"], cancelled: ["scheduled", "sending", "paused"], archived: ["draft", "completed", "cancelled"] },
    actions: {
      /** paused → sending. */
      resume: (db, workspaceId, id, options) =>
        transition(db, workspaceId, id, "sending", ["paused"], options, async (tx, row) => {
          await assertTemplateNotBlocked(tx, workspaceId, row);
          return {};
        }),
    },
    unsupported: (action: CampaignAction) =>
      action === "deploy"
        ? conflict("A bulk campaign is launched or scheduled, not deployed.", "invalid_status_transition")
        : conflict(`A bulk campaign has no ${action} action.`, "invalid_status_transition"),
    // Never back to a draft once launched: it can never send to its audience twice.
    unarchive: (row) => {
      const to: CampaignStatus = !row.launchedAt ? "draft" : row.completedAt ? "completed" : "cancelled";
      return { to, columns: to === "draft" ? { scheduledAt: null, scheduleTimeZone: null } : {} };
    },
  },

  edits: {
    statuses: EDITABLE_STATUSES,
    notEditable: (row) => `This campaign is ${row.status}; a bulk campaign can only be changed while it is a draft or scheduled.`,
    members: ["audience", "sendRatePerSecond"],
    intoRevision: () => false,
    check: checkBulkSettings,
  },

  create: {
    check: (db, workspaceId, { audience, templateId, sendRatePerSecond, senderId }) => checkBulkSettings(db, workspaceId, { audience, templateId, sendRatePerSecond, senderId }),
    columns: ({ audience, templateId, sendRatePerSecond }) => ({
      audience: audience ?? { listIds: [], segmentIds: [] },
      templateId: templateId ?? null,
      sendRatePerSecond: sendRatePerSecond ?? null,
    }),
  },

  view: {
    members: (row) => ({ bulk: bulkSettings(row) }),
    absent: { bulk: null },
    deployed: () => false,
    activityFunnel: false,
    editPage: true,
  },

  async sendTest(db, workspaceId, id, input) {
    if (input.request) {
      throw validationFailed([{ path: "request", code: "not_for_bulk", message: "Only trigger campaigns take an example request; a bulk test is filled from the contact." }]);
    }
    return sendBulkTest(db, workspaceId, id, input.phones);
  },

  otherKind: () => conflict("This is a trigger campaign; it sends when its webhook is called.", "not_a_bulk_campaign"),
};
