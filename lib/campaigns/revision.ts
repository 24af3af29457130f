// Draft revisions: how a live trigger campaign is edited without pausing it.
//
// Editing an `active` campaign (or a paused one that already has pending edits) does not touch the
// columns the trigger endpoint reads (`trigger_config`, `message_config`, `template_id`,
// `rate_limit_per_minute`, `respect_opt_out`). The edits go into one nullable jsonb column on the
// same row, `campaigns.draft_revision`, holding the complete pending configuration. "Publish
// changes" runs the deploy checks on it and copies it onto those columns in a single UPDATE (with
// the version bump and the `campaign.published` audit row in the same transaction); "Discard
// changes" sets it back to null.
//
// Why a column and not a table of revisions: there is at most one pending revision per campaign,
// the row lock that serialises every campaign write also serialises saving and publishing it, and
// the trigger's one-statement context read (lib/trigger/service.ts) never selects the column, so a
// request sees the old configuration or the new one, never a mix, and is never refused with 409.
//
// This module is pure (no database, no Next.js): the builder uses it to show what differs.
import { z } from "zod";
import {
  campaignNameSchema,
  messageConfigSchema,
  parseStoredMessageConfig,
  parseStoredTriggerConfig,
  updateRuleOf,
  triggerConfigSchema,
  type MessageConfig,
  type TriggerConfig,
} from "./schemas";
import { journeySchema, parseStoredJourney, type Journey } from "./journey";
import { describeSendPolicy, parseStoredSendPolicy, sendPolicySchema, type SendPolicy } from "./send-policy";

/** Everything a revision holds: the complete configuration it would put live. */
export const draftRevisionSchema = z
  .object({
    name: campaignNameSchema,
    triggerConfig: triggerConfigSchema,
    messageConfig: messageConfigSchema,
    templateId: z.string().nullable(),
    rateLimitPerMinute: z.number().int(),
    respectOptOut: z.boolean(),
    sendPolicy: sendPolicySchema,
    journey: journeySchema.nullable(),
    savedAt: z.string().meta({ description: "When the revision was last saved (ISO 8601 UTC).", example: "2026-11-21T14:03:07.512Z" }),
    changes: z
      .array(z.enum(["name", "triggerConfig", "templateId", "messageConfig", "rateLimitPerMinute", "respectOptOut", "sendPolicy", "journey"]))
      .meta({ description: "The members that differ from the live configuration." }),
  })
  .meta({
    description:
      "Pending edits of a live trigger campaign: `PATCH` on an `active` campaign writes here, triggers keep using the live configuration until `POST /api/v1/campaigns/{id}/publish`. Null when there is nothing to publish.",
  });
export type DraftRevision = z.output<typeof draftRevisionSchema>;

export const REVISION_MEMBERS = ["name", "triggerConfig", "templateId", "messageConfig", "rateLimitPerMinute", "respectOptOut", "sendPolicy", "journey"] as const;
export type RevisionMember = (typeof REVISION_MEMBERS)[number];

/** The configuration a revision and the live campaign share. */
export interface CampaignConfig {
  name: string;
  triggerConfig: TriggerConfig;
  messageConfig: MessageConfig;
  templateId: string | null;
  rateLimitPerMinute: number;
  respectOptOut: boolean;
  sendPolicy: SendPolicy;
  /** The steps after the trigger; null: one message. */
  journey: Journey | null;
}

/** What is stored in `draft_revision` (the configuration and when it was saved). */
export type StoredRevision = CampaignConfig & { savedAt: string };

/** Reads the stored column leniently; null when empty or unreadable (nothing to publish). */
export function parseStoredRevision(value: unknown): StoredRevision | null {
  if (!value || typeof value !== "object") return null;
  const raw = value as Partial<Record<keyof StoredRevision, unknown>>;
  if (typeof raw.name !== "string") return null;
  return {
    name: raw.name,
    triggerConfig: parseStoredTriggerConfig(raw.triggerConfig),
    messageConfig: parseStoredMessageConfig(raw.messageConfig),
    templateId: typeof raw.templateId === "string" ? raw.templateId : null,
    rateLimitPerMinute: typeof raw.rateLimitPerMinute === "number" ? raw.rateLimitPerMinute : 600,
    respectOptOut: typeof raw.respectOptOut === "boolean" ? raw.respectOptOut : true,
    sendPolicy: parseStoredSendPolicy(raw.sendPolicy),
    journey: parseStoredJourney(raw.journey),
    savedAt: typeof raw.savedAt === "string" ? raw.savedAt : new Date(0).toISOString(),
  };
}

/** Key order and absent optional members must not count as a difference. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The members where the revision differs from the live configuration, in builder order. */
export function revisionChanges(live: CampaignConfig, revision: CampaignConfig): RevisionMember[] {
  return REVISION_MEMBERS.filter((member) => canonical(live[member]) !== canonical(revision[member]));
}

export interface ChangeLine {
  member: RevisionMember;
  label: string;
  /** Short "before → after" for scalar members; null for mappings (which list their rows instead). */
  summary: string | null;
  details: string[];
}

/**
 * What a person reads under "Editing a draft of a live campaign": one line per changed member,
 * with the mapping rows that were added, removed or changed. `templateName` resolves template ids.
 */
export function describeRevisionChanges(
  live: CampaignConfig,
  revision: CampaignConfig,
  templateName: (id: string | null) => string = (id) => id ?? "none",
): ChangeLine[] {
  return revisionChanges(live, revision).map((member) => {
    switch (member) {
      case "name":
        return { member, label: "Name", summary: `${live.name} → ${revision.name}`, details: [] };
      case "templateId":
        return { member, label: "Template", summary: `${templateName(live.templateId)} → ${templateName(revision.templateId)}`, details: [] };
      case "rateLimitPerMinute":
        return { member, label: "Request limit", summary: `${live.rateLimitPerMinute} → ${revision.rateLimitPerMinute} per minute`, details: [] };
      case "respectOptOut":
        return {
          member,
          label: "Opted-out contacts",
          summary: revision.respectOptOut ? "now skipped" : "now sent to",
          details: [],
        };
      case "sendPolicy":
        return { member, label: "Send policy", summary: describeSendPolicy(revision.sendPolicy).join(" · ") || "none", details: [] };
      case "triggerConfig":
        return { member, label: "Request fields", summary: null, details: triggerDetails(live.triggerConfig, revision.triggerConfig) };
      case "messageConfig":
        return { member, label: "Template variables", summary: null, details: variableDetails(live.messageConfig, revision.messageConfig) };
      case "journey":
        return { member, label: "Journey", summary: `${describeJourney(live.journey)} → ${describeJourney(revision.journey)}`, details: [] };
    }
  });
}

const describeJourney = (journey: Journey | null) => (journey ? `${journey.steps.length} step${journey.steps.length === 1 ? "" : "s"}` : "one message");

function triggerDetails(live: TriggerConfig, next: TriggerConfig): string[] {
  const lines: string[] = [];
  if (live.phoneField !== next.phoneField) lines.push(`Phone field: ${live.phoneField} → ${next.phoneField}`);
  const phoneFallbacks = (config: TriggerConfig) => (config.phoneFallbacks.length > 0 ? config.phoneFallbacks.join(", ") : "none");
  if (phoneFallbacks(live) !== phoneFallbacks(next)) lines.push(`Phone fallbacks: ${phoneFallbacks(live)} → ${phoneFallbacks(next)}`);
  if (live.countryField !== next.countryField) lines.push(`Country code field: ${live.countryField ?? "none"} → ${next.countryField ?? "none"}`);
  if (canonical(live.example) !== canonical(next.example)) lines.push(next.example === null ? "Example body removed" : "Example body replaced");
  const before = new Map(live.fields.map((f) => [f.field, f]));
  const after = new Map(next.fields.map((f) => [f.field, f]));
  for (const [field, row] of after) {
    const old = before.get(field);
    if (!old) lines.push(`Added ${field} → ${row.attribute}`);
    else if (canonical(old) !== canonical(row)) {
      const ruleChanged = updateRuleOf(old) !== updateRuleOf(row);
      lines.push(`Changed ${field} (${describeField(old, ruleChanged)} → ${describeField(row, ruleChanged)})`);
    }
  }
  for (const field of before.keys()) if (!after.has(field)) lines.push(`Removed ${field}`);
  return lines;
}

const UPDATE_WORDS = { always: "updates the contact", when_empty: "fills the contact when empty", never: "never stored" } as const;

/** A field in words; its update rule only when it is what changed (`withRule`). */
function describeField(row: TriggerConfig["fields"][number], withRule = false): string {
  return `${row.attribute}, ${row.type}${row.required ? ", required" : ""}${row.fallbacks.length > 0 ? `, else ${row.fallbacks.join(", ")}` : ""}${withRule ? `, ${UPDATE_WORDS[updateRuleOf(row)]}` : ""}`;
}

function variableDetails(live: MessageConfig, next: MessageConfig): string[] {
  const before = new Map(live.variables.map((v) => [v.key, v]));
  const lines: string[] = [];
  for (const variable of next.variables) {
    const old = before.get(variable.key);
    if (old && canonical(old) === canonical(variable)) continue;
    lines.push(`${variableLabel(variable.key)}: ${old ? `${describeMapping(old)} → ` : ""}${describeMapping(variable)}`);
  }
  for (const key of before.keys()) if (!next.variables.some((v) => v.key === key)) lines.push(`${variableLabel(key)}: no longer used`);
  return lines;
}

/** `body.1` → "Body {{1}}", `button.0.id` → "Button 1 link ending {{id}}" (the builder's labels). */
export function variableLabel(key: string): string {
  const [component, ...rest] = key.split(".");
  if (component === "body" && rest.length === 1) return `Body {{${rest[0]}}}`;
  if (component === "header" && rest.length === 1) return `Header {{${rest[0]}}}`;
  if (component === "button" && rest.length === 2 && /^\d+$/.test(rest[0]!)) return `Button ${Number(rest[0]) + 1} link ending {{${rest[1]}}}`;
  return key;
}

function describeMapping(variable: MessageConfig["variables"][number]): string {
  const parts = [variable.attribute ?? "no attribute", variable.fallback ? `fallback "${variable.fallback}"` : null].filter(Boolean);
  return parts.join(", ");
}

/** The live configuration of a campaign as the API shows it. */
export function viewLiveConfig(view: CampaignConfig): CampaignConfig {
  const { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy, journey } = view;
  return { name, triggerConfig, messageConfig, templateId, rateLimitPerMinute, respectOptOut, sendPolicy, journey };
}
