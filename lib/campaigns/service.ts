// Campaign records: get, list, create and update, message counts and known attributes.
// Status changes are in lifecycle.ts, webhook URLs and the curl example in deployment.ts.
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, type KeysetCursor } from "@/db/cursor";
import { campaigns, contacts, messages, templates } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { ApiError, conflict, notFound, validationFailed } from "@/lib/http/errors";
import { getTemplateRow } from "@/lib/templates/service";
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

export type CampaignRow = typeof campaigns.$inferSelect;

export const EDITABLE_STATUSES: CampaignStatus[] = ["draft", "paused"];

export interface CampaignTemplateSummary {
  id: string;
  name: string;
  language: string;
  status: string;
}

export interface CampaignView {
  id: string;
  name: string;
  kind: CampaignKind;
  status: CampaignStatus;
  triggerConfig: TriggerConfig;
  messageConfig: MessageConfig;
  templateId: string | null;
  template: CampaignTemplateSummary | null;
  rateLimitPerMinute: number;
  /** Trigger sends to opted-out contacts are skipped (recorded as `skipped`, reason `opted_out`). */
  respectOptOut: boolean;
  version: number;
  deployedAt: string | null;
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
}

export interface CampaignListItem extends CampaignView {
  stats: CampaignStats;
}

export function isEditable(status: CampaignStatus): boolean {
  return EDITABLE_STATUSES.includes(status);
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
    rateLimitPerMinute: row.rateLimitPerMinute,
    respectOptOut: row.respectOptOut,
    version: row.version,
    deployedAt: row.deployedAt?.toISOString() ?? null,
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
  return { total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 };
}

/**
 * Message counts per campaign. "sent" counts every message that left (sent, delivered or read),
 * "delivered" every message that arrived (delivered or read).
 */
export async function campaignStats(db: Executor, workspaceId: string, campaignIds: string[]): Promise<Map<string, CampaignStats>> {
  const result = new Map<string, CampaignStats>();
  if (campaignIds.length === 0) return result;
  const rows = await db
    .select({
      campaignId: messages.campaignId,
      total: sql<number>`count(*)::int`,
      queued: sql<number>`(count(*) filter (where ${messages.status} in ('queued', 'sending')))::int`,
      sent: sql<number>`(count(*) filter (where ${messages.status} in ('sent', 'delivered', 'read')))::int`,
      delivered: sql<number>`(count(*) filter (where ${messages.status} in ('delivered', 'read')))::int`,
      read: sql<number>`(count(*) filter (where ${messages.status} = 'read'))::int`,
      failed: sql<number>`(count(*) filter (where ${messages.status} = 'failed'))::int`,
      skipped: sql<number>`(count(*) filter (where ${messages.status} = 'skipped'))::int`,
    })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), inArray(messages.campaignId, campaignIds)))
    .groupBy(messages.campaignId);
  for (const row of rows) {
    result.set(row.campaignId, {
      total: Number(row.total),
      queued: Number(row.queued),
      sent: Number(row.sent),
      delivered: Number(row.delivered),
      read: Number(row.read),
      failed: Number(row.failed),
      skipped: Number(row.skipped),
    });
  }
  return result;
}

export async function createCampaign(db: Executor, workspaceId: string, input: CreateCampaignInput): Promise<CampaignView> {
  const { name, kind } = createCampaignSchema.parse(input);
  if (kind === "bulk") {
    throw validationFailed([{ path: "kind", code: "not_available", message: "Bulk campaigns are coming soon. Create a trigger campaign for now." }]);
  }
  const [row] = await db
    .insert(campaigns)
    .values({
      id: newId("cmp"),
      workspaceId,
      name,
      kind,
      status: "draft",
      triggerConfig: defaultTriggerConfig(),
      messageConfig: defaultMessageConfig(),
    })
    .returning();
  if (!row) throw new Error("Inserting the campaign returned no row.");
  return toView(row, null);
}

function notEditable(row: CampaignRow): ApiError {
  if (row.status === "active") {
    return conflict("This campaign is active. Pause it before you edit it.", "campaign_not_editable");
  }
  return conflict(`This campaign is ${row.status} and can no longer be edited.`, "campaign_not_editable");
}

/** 409 for a write based on an older version than the stored one. */
export function versionConflict(row: CampaignRow): ApiError {
  return new ApiError(
    "version_conflict",
    `The campaign was changed elsewhere (now version ${row.version}). Reload it and apply your changes again.`,
    { extensions: { currentVersion: row.version } },
  );
}

/** Saves name / mapping / template; only drafts and paused campaigns can change. */
export async function updateCampaign(db: Executor, workspaceId: string, id: string, input: UpdateCampaignInput): Promise<CampaignView> {
  const changes = updateCampaignSchema.parse(input);
  return db.transaction(async (tx) => {
    const row = await loadCampaignRow(tx, workspaceId, id, { lock: true });
    if (!isEditable(row.status)) throw notEditable(row);
    if (changes.version !== undefined && changes.version !== row.version) throw versionConflict(row);
    if (changes.templateId) {
      const template = await getTemplateRow(tx, workspaceId, changes.templateId);
      if (!template) throw validationFailed([{ path: "templateId", code: "not_found", message: "No template with this id exists in your workspace." }]);
    }
    const [updated] = await tx
      .update(campaigns)
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.triggerConfig !== undefined ? { triggerConfig: changes.triggerConfig } : {}),
        ...(changes.messageConfig !== undefined ? { messageConfig: changes.messageConfig } : {}),
        ...(changes.templateId !== undefined ? { templateId: changes.templateId } : {}),
        ...(changes.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: changes.rateLimitPerMinute } : {}),
        ...(changes.respectOptOut !== undefined ? { respectOptOut: changes.respectOptOut } : {}),
        version: sql`${campaigns.version} + 1`,
        updatedAt: new Date(),
      })
      .where(
        and(eq(campaigns.id, row.id), eq(campaigns.workspaceId, workspaceId), inArray(campaigns.status, EDITABLE_STATUSES), eq(campaigns.version, row.version)),
      )
      .returning();
    if (!updated) throw versionConflict(await loadCampaignRow(tx, workspaceId, id));
    return viewWithTemplate(tx, updated);
  });
}

/**
 * Attribute names a variable can use: built-ins, then those stored on the workspace's contacts.
 * (Attributes of the trigger mapping are added by the builder from its own form state.)
 */
export async function listKnownAttributes(db: Executor, workspaceId: string): Promise<string[]> {
  const key = sql<string>`jsonb_object_keys(${contacts.attributes})`;
  const rows = await db.select({ key }).from(contacts).where(eq(contacts.workspaceId, workspaceId)).groupBy(key).limit(200);
  const stored = rows.map((r) => r.key).filter((key) => !(BUILT_IN_ATTRIBUTES as readonly string[]).includes(key));
  return [...BUILT_IN_ATTRIBUTES, ...stored.sort()];
}
