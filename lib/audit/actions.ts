// Every action an audit row can record, and how the audit log says it. `recordAudit` takes only
// these; `actions.test.ts` reads the source for action strings and fails on one missing here.

/** Campaign actions: `campaign.<status>` for a status change (lib/campaigns/lifecycle.ts) and the named ones. */
export const CAMPAIGN_AUDIT_ACTIONS = [
  "deployed",
  "paused",
  "resumed",
  "archived",
  "unarchived",
  "published",
  "changes_discarded",
  "launched",
  "scheduled",
  "sending",
  "completed",
  "cancelled",
  "draft",
  "active",
  "retargeted",
  "schedule_missed",
  "schedule_failed",
  "source_changed",
  "source_secret_set",
  "unknown_consent_included",
] as const;
export type CampaignAuditAction = (typeof CAMPAIGN_AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS = {
  "api_key.created": "Created an API key",
  "api_key.deleted": "Deleted an API key",
  "sender.created": "Added a WhatsApp number",
  "sender.renamed": "Renamed a WhatsApp number",
  "sender.default_changed": "Changed the default WhatsApp number",
  "sender.deleted": "Removed a WhatsApp number",
  "sender.settings_changed": "Changed WhatsApp settings",
  "template.submitted": "Submitted a template for review",
  "campaign.deployed": "Deployed a campaign",
  "campaign.active": "Deployed a campaign",
  "campaign.paused": "Paused a campaign",
  "campaign.resumed": "Resumed a campaign",
  "campaign.archived": "Archived a campaign",
  "campaign.unarchived": "Unarchived a campaign",
  "campaign.published": "Published changes to a campaign",
  "campaign.changes_discarded": "Discarded changes to a campaign",
  "campaign.launched": "Launched a campaign",
  "campaign.scheduled": "Scheduled a campaign",
  "campaign.sending": "Started sending a campaign",
  "campaign.completed": "Campaign finished sending",
  "campaign.cancelled": "Cancelled a campaign",
  "campaign.draft": "Moved a campaign back to draft",
  "campaign.retargeted": "Made a campaign for a new audience",
  "campaign.schedule_missed": "Scheduled campaign missed its start",
  "campaign.schedule_failed": "Scheduled campaign could not start",
  "campaign.source_changed": "Changed how a campaign is called",
  "campaign.source_secret_set": "Set a campaign's signing secret",
  "campaign.unknown_consent_included": "Sent a marketing campaign to contacts of unknown consent",
  "member.added": "Added a member",
  "member.removed": "Removed a member",
  "member.role_changed": "Changed a member's role",
  "member.invited": "Invited a member",
  "member.invitation_revoked": "Withdrew an invitation",
  "member.invitation_link_renewed": "Renewed an invitation link",
  "contact.opted_out": "Contact opted out",
  "contact.opted_in": "Contact opted back in",
  "contact.consent_changed": "Changed a contact's consent",
  "import.permission_confirmed": "Confirmed permission to message an import's contacts",
  "webhook_endpoint.created": "Added a webhook endpoint",
  "webhook_endpoint.updated": "Changed a webhook endpoint",
  "webhook_endpoint.enabled": "Switched a webhook endpoint on",
  "webhook_endpoint.disabled": "Switched a webhook endpoint off",
  "webhook_endpoint.secret_rolled": "Rolled a webhook signing secret",
  "webhook_endpoint.deleted": "Deleted a webhook endpoint",
  "alerts.settings_changed": "Changed alert settings",
  "conversation.replied": "Replied in a conversation",
  "auto_reply.created": "Added an auto-reply",
  "auto_reply.updated": "Changed an auto-reply",
  "auto_reply.deleted": "Deleted an auto-reply",
  "conversation.assigned": "Assigned a conversation",
  "conversation.unassigned": "Unassigned a conversation",
  "conversation.closed": "Closed a conversation",
  "conversation.reopened": "Reopened a conversation",
  "journey_run.ended": "Ended a journey run",
  "workspace.inbox_settings_changed": "Changed the inbox settings",
  "workspace.renamed": "Renamed the workspace",
  "workspace.default_country_changed": "Changed the default country",
  "workspace.opt_out_keywords_changed": "Changed the opt-out keywords",
  "user.password_reset_requested": "Asked for a password reset",
  "user.password_reset": "Reset their password",
  "user.unverified_password_removed": "Removed an unverified password",
} as const satisfies Record<string, string> & Record<`campaign.${CampaignAuditAction}`, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_LABELS, value);
}

/** What the audit log shows for an action; a stored action this version does not know reads as itself, made readable. */
export function auditActionLabel(action: string): string {
  if (isAuditAction(action)) return AUDIT_ACTION_LABELS[action];
  const [subject = "", verb = ""] = action.split(".");
  const words = `${subject.replaceAll("_", " ")} ${verb.replaceAll("_", " ")}`.trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
