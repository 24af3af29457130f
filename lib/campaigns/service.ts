// Campaign records: get, list, create and update, message counts and known attributes. What
// differs per kind (what a kind's create and PATCH accept and check, its view members) is the
// registered kind's (kinds.ts). Status changes are in lifecycle.ts, webhook URLs and the curl
// example in deployment.ts.
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, type KeysetCursor } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { campaigns, templates } from "@/db/schema";
import { campaignSenderRow, getSenderRowById } from "@/lib/senders/service";
import { newId } from "@/lib/crypto/random";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { countFunnelsByCampaign, funnelTotal } from "./funnel";
import { campaignKind, kindMembers, registeredCampaignKinds, type CampaignKindMembers, type UpdateCampaignValues } from "./kinds";
import {
  BUILT_IN_ATTRIBUTES,
  createCampaignSchema,
  defaultMessageConfig,
  defaultTriggerConfig,
  parseStoredMessageConfig,
  parseStoredTriggerConfig,
  updateCampaignSchema,
  type CampaignKind,
  type CampaignStatus,
  type CreateCampaignInput,
  type MessageConfig,
  type TriggerConfig,
  type UpdateCampaignInput,
} from "./schemas";
import { parseStoredJourney, type Journey } from "./journey";
import { assertValidJourney } from "./journey-checks";
import { parseStoredRevision, revisionChanges, type CampaignConfig, type DraftRevision } from "./revision";
import { expectVersion, updateCampaignRow } from "./versioned";
import { parseStoredSendPolicy, type SendPolicy } from "./send-policy";

export type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignTemplateSummary {
  id: string;
  name: string;
  language: string;
  status: string;
}

/** A campaign as the API and the pages show it; members of one kind come from the kind (`CampaignKindMembers`). */
export interface CampaignView extends CampaignKindMembers {
  id: string;
  name: string;
  kind: CampaignKind;
  status: CampaignStatus;
  triggerConfig: TriggerConfig;
  messageConfig: MessageConfig;
  templateId: string | null;
  template: CampaignTemplateSummary | null;
  /** The sender it sends through (null only for a campaign stored before campaigns named one: the default's). */
  senderId: string | null;
  rateLimitPerMinute: number;
  /** Trigger sends to opted-out contacts are skipped (recorded as `skipped`, reason `opted_out`). */
  respectOptOut: boolean;
  sendPolicy: SendPolicy;
  /** Trigger campaigns: the steps after the trigger (journey.ts); null: it sends its one message. */
  journey: Journey | null;
  /** The journey version new runs enter (0: none published yet). */
  journeyVersion: number;
  version: number;
  deployedAt: string | null;
  /** Trigger campaigns: pending edits of a live campaign (revision.ts); null when there are none. */
  draftRevision?: DraftRevision | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignStats {
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  /** Deliberately not sent (the contact opted out, …). */
  skipped: number;
  /** Messages the contact replied to (beside the funnel, not below read). */
  replied: number;
}

export interface CampaignListItem extends CampaignView {
  stats: CampaignStats;
}

/** The configuration triggers use: the row's own columns, never the draft revision. */
export function liveConfig(row: CampaignRow): CampaignConfig {
  return {
    name: row.name,
    triggerConfig: parseStoredTriggerConfig(row.triggerConfig),
    messageConfig: parseStoredMessageConfig(row.messageConfig),
    templateId: row.templateId,
    rateLimitPerMinute: row.rateLimitPerMinute,
    respectOptOut: row.respectOptOut,
    sendPolicy: parseStoredSendPolicy(row.sendPolicy),
    journey: parseStoredJourney(row.journey),
  };
}

function draftRevisionView(row: CampaignRow): DraftRevision | null {
  const stored = parseStoredRevision(row.draftRevision);
  if (!stored) return null;
  return { ...stored, changes: revisionChanges(liveConfig(row), stored) };
}

function toView(row: CampaignRow, template: CampaignTemplateSummary | null): CampaignView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    status: row.status,
    triggerConfig: parseStoredTriggerConfig(row.triggerConfig),
    messageConfig: parseStoredMessageConfig(row.messageConfig),
    templateId: row.templateId,
    template,
    senderId: row.senderId,
    rateLimitPerMinute: row.rateLimitPerMinute,
    respectOptOut: row.respectOptOut,
    sendPolicy: parseStoredSendPolicy(row.sendPolicy),
    journey: parseStoredJourney(row.journey),
    journeyVersion: row.journeyVersion,
    version: row.version,
    deployedAt: row.deployedAt?.toISOString() ?? null,
    draftRevision: draftRevisionView(row),
    ...kindMembers(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const templateSummaryColumns = { id: templates.id, name: templates.name, language: templates.language, status: templates.status };

/** The workspace's campaign row, 404 otherwise; `lock` holds it for the rest of the transaction. */
export async function loadCampaignRow(db: Executor, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<CampaignRow> {
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.id, id)))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound("No campaign with this id exists in your workspace.");
  return row;
}

/** The row as the API shows it, with its template's summary. */
export async function viewWithTemplate(db: Executor, row: CampaignRow): Promise<CampaignView> {
  if (!row.templateId) return toView(row, null);
  const [template] = await db
    .select(templateSummaryColumns)
    .from(templates)
    .where(and(eq(templates.workspaceId, row.workspaceId), eq(templates.id, row.templateId)))
    .limit(1);
  return toView(row, template ?? null);
}

export async function getCampaign(db: Executor, workspaceId: string, id: string): Promise<CampaignView> {
  return viewWithTemplate(db, await loadCampaignRow(db, workspaceId, id));
}

export interface ListCampaignsOptions {
  /** Archived campaigns are left out unless asked for. */
  includeArchived?: boolean;
  status?: CampaignStatus;
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string | null;
}

export interface CampaignPage {
  data: CampaignListItem[];
  nextCursor: string | null;
}

const CAMPAIGN_ID = /^cmp_[A-Za-z0-9]{1,64}$/;

function decodeListCursor(token: string): KeysetCursor {
  const cursor = decodeCursor(token, { id: CAMPAIGN_ID });
  if (!cursor || cursor.direction !== "older") {
    throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "The cursor is not valid; start again from the first page." }]);
  }
  return cursor;
}

/** Newest first, keyset-paginated, with message counts per status. */
export async function listCampaigns(db: Executor, workspaceId: string, options: ListCampaignsOptions = {}): Promise<CampaignPage> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  const conditions = [eq(campaigns.workspaceId, workspaceId)];
  if (options.status) conditions.push(eq(campaigns.status, options.status));
  else if (!options.includeArchived) conditions.push(ne(campaigns.status, "archived"));
  if (options.cursor) conditions.push(keysetCondition(campaigns, decodeListCursor(options.cursor)));
  const rows = await db
    .select({ campaign: campaigns, template: templateSummaryColumns, position: cursorTimestamp(campaigns.createdAt) })
    .from(campaigns)
    .leftJoin(templates, and(eq(templates.id, campaigns.templateId), eq(templates.workspaceId, campaigns.workspaceId)))
    .where(and(...conditions))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const stats = await campaignStats(
    db,
    workspaceId,
    page.map((r) => r.campaign.id),
  );
  return {
    data: page.map((r) => ({
      ...toView(r.campaign, r.template?.id ? r.template : null),
      stats: stats.get(r.campaign.id) ?? emptyStats(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.campaign.id, direction: "older" }) : null,
  };
}

function emptyStats(): CampaignStats {
  return { total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0 };
}

/** Message counts per campaign: the cumulative funnel (funnel.ts), test sends left out. */
export async function campaignStats(db: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignStats>> {
  const funnels = await countFunnelsByCampaign(db, { workspaceId, campaignIds });
  return new Map([...funnels].map(([campaignId, funnel]) => [campaignId, { total: funnelTotal(funnel), ...funnel }]));
}

export async function createCampaign(db: Executor, workspaceId: string, input: CreateCampaignInput): Promise<CampaignView> {
  const values = createCampaignSchema.parse(input);
  const { name, kind, messageConfig } = values;
  // The named sender (404 for another workspace's), or the default one.
  const sender = await campaignSenderRow(db, workspaceId, values.senderId);
  const kindRules = campaignKind(kind).create;
  await kindRules.check(db, workspaceId, { ...values, senderId: sender.id });
  if (values.journey) await assertValidJourney(db, workspaceId, values.journey, { triggerConfig: defaultTriggerConfig() });
  const [row] = await db
    .insert(campaigns)
    .values({
      id: newId("cmp"),
      workspaceId,
      name,
      kind,
      status: "draft",
      senderId: sender.id,
      triggerConfig: defaultTriggerConfig(),
      messageConfig: messageConfig ?? defaultMessageConfig(),
      ...(values.journey ? { journey: values.journey } : {}),
      ...kindRules.columns(values),
    })
    .returning();
  if (!row) throw new Error("Inserting the campaign returned no row.");
  return viewWithTemplate(db, row);
}

/**
 * Saves name / mapping / template (/ audience / rate): trigger campaigns in draft and paused, bulk
 * ones in draft and scheduled, in place. An active trigger campaign (or a paused one with pending
 * edits) gets the changes in its draft revision instead; what triggers use stays as it is until
 * the revision is published (lifecycle.ts).
 */
export async function updateCampaign(db: Executor, workspaceId: string, id: string, input: UpdateCampaignInput): Promise<CampaignView> {
  const changes = updateCampaignSchema.parse(input);
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    const edits = campaignKind(row.kind).edits;
    const intoRevision = edits.intoRevision(row);
    if (!intoRevision && !edits.statuses.includes(row.status)) throw conflict(edits.notEditable(row), "campaign_not_editable");
    expectVersion(row, changes.version);
    const kindErrors = registeredCampaignKinds()
      .flatMap((other) => (other.edits === edits ? [] : other.edits.members))
      .filter((member) => changes[member] !== undefined)
      .map((member) => ({ path: member, code: "not_for_kind", message: `A ${row.kind} campaign has no ${member}.` }));
    if (kindErrors.length > 0) throw validationFailed(kindErrors);
    // A sender of another workspace is 404 like any other reference.
    if (changes.senderId !== undefined) await getSenderRowById(tx, workspaceId, changes.senderId);
    await edits.check(tx, workspaceId, { ...changes, senderId: changes.senderId ?? row.senderId ?? undefined });
    if (changes.journey) {
      const base = (intoRevision ? parseStoredRevision(row.draftRevision) : null) ?? liveConfig(row);
      await assertValidJourney(tx, workspaceId, changes.journey, { triggerConfig: changes.triggerConfig ?? base.triggerConfig, campaignId: row.id });
    }
    // The sender is not part of a draft revision: a live campaign's new messages use it at once.
    if (intoRevision) return saveRevision(tx, changes.senderId !== undefined ? await updateCampaignRow(tx, row, { senderId: changes.senderId }) : row, changes);
    const updated = await updateCampaignRow(
      tx,
      row,
      {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.triggerConfig !== undefined ? { triggerConfig: changes.triggerConfig } : {}),
        ...(changes.messageConfig !== undefined ? { messageConfig: changes.messageConfig } : {}),
        ...(changes.templateId !== undefined ? { templateId: changes.templateId } : {}),
        ...(changes.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: changes.rateLimitPerMinute } : {}),
        ...(changes.respectOptOut !== undefined ? { respectOptOut: changes.respectOptOut } : {}),
        ...(changes.sendPolicy !== undefined ? { sendPolicy: changes.sendPolicy } : {}),
        ...(changes.journey !== undefined ? { journey: changes.journey } : {}),
        ...(changes.audience !== undefined ? { audience: changes.audience } : {}),
        ...(changes.sendRatePerSecond !== undefined ? { sendRatePerSecond: changes.sendRatePerSecond } : {}),
        ...(changes.senderId !== undefined ? { senderId: changes.senderId } : {}),
      },
      inArray(campaigns.status, [...edits.statuses]),
    );
    return viewWithTemplate(tx, updated);
  });
}

/** Writes the draft revision: the pending one (or the live configuration) with the changes applied; none left when it equals the live one. */
async function saveRevision(tx: Executor, row: CampaignRow, changes: UpdateCampaignValues): Promise<CampaignView> {
  const live = liveConfig(row);
  const base = parseStoredRevision(row.draftRevision) ?? live;
  const next: CampaignConfig = {
    name: changes.name ?? base.name,
    triggerConfig: changes.triggerConfig ?? base.triggerConfig,
    messageConfig: changes.messageConfig ?? base.messageConfig,
    templateId: changes.templateId !== undefined ? changes.templateId : base.templateId,
    rateLimitPerMinute: changes.rateLimitPerMinute ?? base.rateLimitPerMinute,
    respectOptOut: changes.respectOptOut ?? base.respectOptOut,
    sendPolicy: changes.sendPolicy ?? base.sendPolicy,
    journey: changes.journey !== undefined ? changes.journey : base.journey,
  };
  const now = new Date();
  const pending = revisionChanges(live, next).length > 0 ? { ...next, savedAt: now.toISOString() } : null;
  const updated = await updateCampaignRow(tx, row, { draftRevision: pending, updatedAt: now }, inArray(campaigns.status, ["active", "paused"]));
  return viewWithTemplate(tx, updated);
}

/** How many of the newest contacts `listKnownAttributes` reads keys from. */
const ATTRIBUTE_SAMPLE = 10_000;

/**
 * Attribute names a variable can use: built-ins, then the declared attributes and the keys of the
 * workspace's newest contacts (not of all of them: at a million contacts that read is a second).
 * (Attributes of the trigger mapping are added by the builder from its own form state.)
 */
export async function listKnownAttributes(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select key from contact_attributes where workspace_id = ${workspaceId}
      union
      select jsonb_object_keys(attributes) from (
        select attributes from contacts where workspace_id = ${workspaceId}
        order by created_at desc nulls last, id desc nulls last limit ${ATTRIBUTE_SAMPLE}
      ) newest
      limit 200`,
  );
  const stored = rows.map((r) => r.key).filter((key) => !(BUILT_IN_ATTRIBUTES as readonly string[]).includes(key));
  return [...BUILT_IN_ATTRIBUTES, ...stored.sort()];
}
