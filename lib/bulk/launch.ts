// Launch checks, the launch (the audience snapshotted into one queued message per contact, exactly
// once) and scheduling of bulk campaigns.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import type { AuditActor } from "@/lib/audit/service";
import { parseStoredMessageConfig, type CampaignStatus } from "@/lib/campaigns/schemas";
import { campaignKind, expectKind } from "@/lib/campaigns/kinds";
import { loadCampaignRow, viewWithTemplate, type CampaignRow, type CampaignView } from "@/lib/campaigns/service";
import { auditCampaign, expectVersion, updateCampaignRow } from "@/lib/campaigns/versioned";
import { ApiError, conflict, type FieldError } from "@/lib/http/errors";
import { lockMessagingAccount } from "@/lib/senders/messaging-account";
import { campaignSenderRow, isSenderConfigured } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { bulkAudienceSql, consentRuleOf, countAudienceTotals, countBulkAudience, isAudienceEmpty, noConsentSql, parseStoredAudience, type ConsentRule } from "./audience";
import { bulkLaunchChecks } from "./checks";
import { renderingSql } from "./render-sql";
import type { BulkAudience } from "./schemas";
import { snapshotAudience, writeSnapshotChunk } from "./snapshot";
import { tierUsage, type TierUsage } from "./tier";


/** A bulk campaign of the workspace (404 otherwise; 409 for a trigger campaign). */
export async function loadBulkCampaignRow(db: Executor, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<CampaignRow> {
  return expectKind(await loadCampaignRow(db, workspaceId, id, options), campaignKind("bulk"));
}

export interface LaunchCheck {
  ready: boolean;
  errors: FieldError[];
  warnings: FieldError[];
  audienceCount: number;
  consent: { marketing: boolean; includeUnknown: boolean; subscribed: number; unknown: number; unsubscribed: number; skipped: number; unknownWithEmptyVariables: number };
  /** Contacts of the audience with an empty variable: stored as skipped at launch, never sent. */
  skippedForEmptyVariables: number;
  tier: { tier: TierUsage["tier"]; limit: number | null; usedLast24h: number; available: number | null };
  exceedsTier: boolean;
  sendableNow: number;
  sendRatePerSecond: number;
  estimatedDurationSeconds: number;
}

interface LaunchPlan {
  check: LaunchCheck;
  senderId: string;
  /** Contacts to message (a variable of some may be empty: they are stored as skipped or left out). */
  audienceSql: SQL | null;
  template: { name: string; language: string; parameterFormat: "POSITIONAL" | "NAMED"; components: unknown[] } | null;
  audience: BulkAudience;
  consentRule: ConsentRule;
}
type SQL = ReturnType<typeof sql>;

async function planLaunch(db: Executor, workspaceId: string, row: CampaignRow, options: { allowTierWait: boolean; now: Date }): Promise<LaunchPlan> {
  const sender = await campaignSenderRow(db, workspaceId, row.senderId);
  const templateRow = row.templateId ? await getTemplateRow(db, workspaceId, row.templateId) : null;
  const template = templateRow
    ? { name: templateRow.name, language: templateRow.language, parameterFormat: templateRow.parameterFormat, components: templateRow.components }
    : null;
  const audience = parseStoredAudience(row.audience);
  const messageConfig = parseStoredMessageConfig(row.messageConfig);
  const audienceSql = isAudienceEmpty(audience) ? null : await bulkAudienceSql(db, workspaceId, audience);
  const rendering = template ? renderingSql(template, messageConfig) : null;
  const consentRule = consentRuleOf(templateRow?.category, audience);
  const counts = audienceSql ? await countAudienceTotals(db, audienceSql, rendering, noConsentSql(consentRule)) : { total: 0, withEmptyVariables: 0, noConsent: 0, subscribed: 0, unknownWithEmptyVariables: 0 };
  const unsubscribed = isAudienceEmpty(audience) ? 0 : (await countBulkAudience(db, workspaceId, audience)).optedOutExcluded;
  // Every contact of the audience gets a message; those without consent or with an empty variable
  // get a skipped one (listed with its reason), never sent: they use none of the daily limit.
  const audienceCount = counts.total;
  const toSend = counts.total - counts.withEmptyVariables - counts.noConsent;
  const usage = await tierUsage(db, sender, options.now);
  const { errors, warnings } = bulkLaunchChecks({
    messageConfig: row.messageConfig,
    template: templateRow ? { ...templateRow, availableForSender: templateFitsSender(templateRow, sender) } : null,
    sender: { provider: sender.provider, configured: isSenderConfigured(sender), throughputPerSecond: sender.throughputPerSecond },
    sendRatePerSecond: row.sendRatePerSecond,
    audienceCount: toSend,
    availableUnderTier: usage.available,
    tierKnown: usage.known,
    allowTierWait: options.allowTierWait,
  });
  if (isAudienceEmpty(audience)) {
    errors.splice(errors.findIndex((e) => e.code === "audience_empty"), 1);
    errors.unshift({ path: "audience", code: "audience_missing", message: "Pick at least one list or segment." });
  }
  const exceedsTier = usage.available !== null && toSend > usage.available;
  const sendableNow = exceedsTier ? usage.available! : toSend;
  const rate = Math.max(1, Math.min(row.sendRatePerSecond ?? sender.throughputPerSecond, sender.throughputPerSecond));
  return {
    check: {
      ready: errors.length === 0,
      errors,
      warnings,
      audienceCount,
      consent: {
        marketing: consentRule.marketing,
        includeUnknown: consentRule.includeUnknown,
        subscribed: counts.subscribed,
        unknown: counts.total - counts.subscribed,
        unsubscribed,
        skipped: counts.noConsent,
        unknownWithEmptyVariables: counts.unknownWithEmptyVariables,
      },
      skippedForEmptyVariables: counts.withEmptyVariables,
      tier: { tier: usage.tier, limit: usage.limit, usedLast24h: usage.usedLast24h, available: usage.available },
      exceedsTier,
      sendableNow,
      sendRatePerSecond: rate,
      estimatedDurationSeconds: Math.ceil(sendableNow / rate),
    },
    senderId: sender.id,
    audienceSql,
    template,
    audience,
    consentRule,
  };
}

/** What a launch would find now, without changing anything. */
export async function getLaunchCheck(db: Executor, workspaceId: string, id: string, now: Date = new Date()): Promise<LaunchCheck> {
  const row = await loadBulkCampaignRow(db, workspaceId, id);
  return (await planLaunch(db, workspaceId, row, { allowTierWait: row.allowTierWait, now })).check;
}

/** The launch checks' blocking errors for a bulk campaign's row (the kind's readiness); empty when it can launch. */
export async function launchErrors(db: Executor, workspaceId: string, row: CampaignRow, now: Date = new Date()): Promise<FieldError[]> {
  return (await planLaunch(db, workspaceId, row, { allowTierWait: row.allowTierWait, now })).check.errors;
}

function checksFailed(check: LaunchCheck): ApiError {
  const tier = check.errors.find((e) => e.code === "tier_exceeded");
  const detail = tier
    ? `${check.sendableNow.toLocaleString("en-US")} of ${check.audienceCount.toLocaleString("en-US")} recipients fit the daily messaging limit now. ${tier.message}`
    : `Fix ${check.errors.length === 1 ? "this problem" : `these ${check.errors.length} problems`} before the campaign can be launched.`;
  return new ApiError("launch_checks_failed", detail, { errors: check.errors, extensions: { sendableNow: check.sendableNow, audienceCount: check.audienceCount } });
}

/**
 * The audience frozen into snapshot chunks (`snapshot.ts`), and the first chunk's messages written,
 * so that a small audience is fully queued when the launch answers and a large one starts sending
 * while the dispatch passes write the rest.
 */
async function snapshotAndQueueFirstChunk(tx: Executor, workspaceId: string, row: CampaignRow, plan: LaunchPlan, now: Date, chunkSize?: number): Promise<number> {
  if (!plan.audienceSql || !plan.template) return 0;
  const rendering = renderingSql(plan.template, parseStoredMessageConfig(row.messageConfig));
  const { contacts } = await snapshotAudience(tx, {
    workspaceId,
    campaignId: row.id,
    senderId: plan.senderId,
    template: plan.template,
    audienceSql: plan.audienceSql,
    missing: rendering.missing,
    missingJoins: rendering.missingJoins,
    noConsent: noConsentSql(plan.consentRule),
    available: plan.check.exceedsTier ? plan.check.sendableNow : null,
    now,
    chunkSize,
  });
  await writeSnapshotChunk(tx, row.id);
  return contacts;
}

export interface LaunchOptions {
  version?: number;
  /** Overrides the campaign's stored choice (set when it was scheduled). */
  allowTierWait?: boolean;
  /** Stored on the campaign's audience before the checks (a marketing template then reaches unknown consent too). */
  includeUnknownConsent?: boolean;
  actor?: AuditActor;
  now?: Date;
  /** Tests only: runs after the snapshot, before the status change commits (a throw rolls everything back). */
  afterSnapshot?: (inserted: number) => Promise<void> | void;
  /** Tests only: contacts per snapshot chunk (SNAPSHOT_CHUNK_SIZE otherwise). */
  snapshotChunkSize?: number;
}

const LAUNCHABLE: CampaignStatus[] = ["draft", "scheduled"];

/** The row with the launch's include-unknown choice in its audience (stored with the status change). */
function withConsentChoice(row: CampaignRow, includeUnknownConsent: boolean | undefined): CampaignRow {
  if (includeUnknownConsent === undefined) return row;
  const audience = { ...parseStoredAudience(row.audience), includeUnknownConsent };
  return { ...row, audience: audience as unknown as CampaignRow["audience"] };
}

/** A marketing campaign sent to contacts of unknown consent: its own audit row, with how many. */
async function auditConsentChoice(tx: Executor, campaign: CampaignRow, consent: LaunchCheck["consent"], actor: AuditActor | undefined): Promise<void> {
  if (!consent.marketing || !consent.includeUnknown) return;
  await auditCampaign(tx, campaign, "unknown_consent_included", actor, { unknown: consent.unknown, subscribed: consent.subscribed });
}
const LAUNCHED: CampaignStatus[] = ["sending", "paused", "completed"];

/**
 * draft / scheduled → sending: the launch checks, the snapshot and the status change in one
 * transaction under the campaign's row lock and the sender's messaging-limit lock (launches of other
 * campaigns on the same business account wait, then count this one's messages). A launch retried or
 * run concurrently finds the campaign launched and changes nothing; one that dies mid-way leaves
 * nothing behind.
 */
export async function launchBulkCampaign(db: Executor, workspaceId: string, id: string, options: LaunchOptions = {}): Promise<CampaignView> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    let row = await loadBulkCampaignRow(tx, workspaceId, id, { lock: true });
    if (LAUNCHED.includes(row.status) && row.launchedAt) return viewWithTemplate(tx, row);
    if (!LAUNCHABLE.includes(row.status)) throw conflict(`A ${row.status} campaign cannot be launched.`, "invalid_status_transition");
    expectVersion(row, options.version);
    const allowTierWait = options.allowTierWait ?? row.allowTierWait;
    row = withConsentChoice(row, options.includeUnknownConsent);
    // Launches on the numbers of one business account take turns: each counts what the last queued.
    await lockMessagingAccount(tx, await campaignSenderRow(tx, workspaceId, row.senderId));
    const plan = await planLaunch(tx, workspaceId, row, { allowTierWait, now });
    if (!plan.check.ready) throw checksFailed(plan.check);
    const inserted = await snapshotAndQueueFirstChunk(tx, workspaceId, row, plan, now, options.snapshotChunkSize);
    await options.afterSnapshot?.(inserted);
    const updated = await updateCampaignRow(tx, row, { status: "sending", launchedAt: now, allowTierWait, audience: row.audience, updatedAt: now });
    await auditCampaign(tx, updated, "launched", options.actor, {
      from: row.status,
      to: "sending",
      version: updated.version,
      messages: inserted,
      held: plan.check.exceedsTier ? Math.max(0, inserted - plan.check.sendableNow) : 0,
      consent: plan.check.consent,
    });
    await auditConsentChoice(tx, updated, plan.check.consent, options.actor);
    return viewWithTemplate(tx, updated);
  });
}

/** A local date-time in an IANA zone (or an instant with an offset) → the UTC instant. */
export function zonedDateTimeToUtc(value: string, timeZone: string): Date {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) return new Date(value);
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s, ms] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Number((ms ?? "0").padEnd(3, "0")));
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(instant));
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const seen = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
    return seen - Math.floor(instant / 1000) * 1000;
  };
  const first = wall - offsetAt(wall);
  const second = wall - offsetAt(first);
  return new Date(second);
}

export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

export interface ScheduleInput {
  scheduledAt: string;
  timeZone: string;
  version?: number;
  allowTierWait?: boolean;
  includeUnknownConsent?: boolean;
}

/** How far ahead a campaign may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;

/** draft / scheduled → scheduled at a time in a zone; the checks run now (the daily limit again at the start). */
export async function scheduleBulkCampaign(
  db: Executor,
  workspaceId: string,
  id: string,
  input: ScheduleInput,
  options: { actor?: AuditActor; now?: Date } = {},
): Promise<CampaignView> {
  const now = options.now ?? new Date();
  const fieldErrors: FieldError[] = [];
  if (!isTimeZone(input.timeZone)) fieldErrors.push({ path: "timeZone", code: "invalid_time_zone", message: "Use an IANA time zone such as Europe/Lisbon." });
  const at = fieldErrors.length === 0 ? zonedDateTimeToUtc(input.scheduledAt, input.timeZone) : new Date(Number.NaN);
  if (fieldErrors.length === 0) {
    if (Number.isNaN(at.getTime())) fieldErrors.push({ path: "scheduledAt", code: "invalid_date", message: "Not a valid date-time." });
    else if (at.getTime() <= now.getTime()) fieldErrors.push({ path: "scheduledAt", code: "in_the_past", message: "Pick a time in the future (or launch now)." });
    else if (at.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_MS) fieldErrors.push({ path: "scheduledAt", code: "too_far_ahead", message: "Pick a time within a year." });
  }
  if (fieldErrors.length > 0) throw new ApiError("validation_failed", "The schedule is not valid.", { errors: fieldErrors });
  return db.transaction(async (tx) => {
    const locked = await loadBulkCampaignRow(tx, workspaceId, id, { lock: true });
    if (!LAUNCHABLE.includes(locked.status)) throw conflict(`A ${locked.status} campaign cannot be scheduled.`, "invalid_status_transition");
    expectVersion(locked, input.version);
    const row = withConsentChoice(locked, input.includeUnknownConsent);
    const allowTierWait = input.allowTierWait ?? row.allowTierWait;
    const plan = await planLaunch(tx, workspaceId, row, { allowTierWait, now });
    // The daily limit is checked again at the scheduled time, when the rolling window has moved.
    const errors = plan.check.errors.filter((e) => e.code !== "tier_exceeded");
    if (errors.length > 0) throw checksFailed({ ...plan.check, errors });
    const updated = await updateCampaignRow(tx, row, { status: "scheduled", scheduledAt: at, scheduleTimeZone: input.timeZone, allowTierWait, audience: row.audience, updatedAt: now });
    await auditCampaign(tx, updated, "scheduled", options.actor, { from: row.status, to: "scheduled", version: updated.version, scheduledAt: at.toISOString(), timeZone: input.timeZone });
    return viewWithTemplate(tx, updated);
  });
}
