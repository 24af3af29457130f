// A bulk campaign's audience as SQL: the lists and segments (lib/audiences/audience.ts), plus
// contacts named one by one (a retarget), minus excluded contacts; opted-out contacts never.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { audienceContactsSql } from "@/lib/audiences/audience";
import { loadList } from "@/lib/audiences/lists";
import { c, compileSegmentFilter, segmentFilter } from "@/lib/audiences/segments";
import { validationFailed } from "@/lib/http/errors";
import type { SqlRendering } from "./render-sql";
import { bulkAudienceSchema, type BulkAudience } from "./schemas";

/** Reads a stored audience leniently (an empty or hand-edited jsonb is an empty audience). */
export function parseStoredAudience(value: unknown): BulkAudience {
  const parsed = bulkAudienceSchema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const raw = (value ?? {}) as Record<string, unknown>;
  const ids = (member: unknown) => (Array.isArray(member) ? member.filter((id): id is string => typeof id === "string") : []);
  return {
    listIds: ids(raw.listIds),
    segmentIds: ids(raw.segmentIds),
    ...(Array.isArray(raw.contactIds) ? { contactIds: ids(raw.contactIds) } : {}),
    ...(Array.isArray(raw.excludeContactIds) ? { excludeContactIds: ids(raw.excludeContactIds) } : {}),
    ...(typeof raw.excludeContactsWithEmptyVariables === "boolean" ? { excludeContactsWithEmptyVariables: raw.excludeContactsWithEmptyVariables } : {}),
    ...(typeof raw.includeUnknownConsent === "boolean" ? { includeUnknownConsent: raw.includeUnknownConsent } : {}),
  };
}

/**
 * The consent rule of bulk campaigns. Unsubscribed contacts are never in an audience
 * (`bulkAudienceSql`). A MARKETING template reaches only subscribed contacts, unless the campaign
 * includes unknown consent (`audience.includeUnknownConsent`); utility and authentication
 * templates reach unknown ones too. Contacts left out for consent are stored as skipped
 * (`no_consent`), so the campaign's numbers account for them.
 */
export interface ConsentRule {
  marketing: boolean;
  includeUnknown: boolean;
}

export function consentRuleOf(templateCategory: string | null | undefined, audience: Pick<BulkAudience, "includeUnknownConsent">): ConsentRule {
  return { marketing: templateCategory === "MARKETING", includeUnknown: audience.includeUnknownConsent === true };
}

/** True for a contact (aliased `c`) of the audience that the rule leaves out for consent. */
export function noConsentSql(rule: ConsentRule): SQL {
  return rule.marketing && !rule.includeUnknown ? sql`(c.consent_status <> 'subscribed')` : sql`false`;
}

export const NO_CONSENT_CODE = "no_consent";
export const NO_CONSENT_REASON = "Not sent: the template is marketing and the contact has not subscribed (consent unknown); the campaign did not include unknown consent.";

export function isAudienceEmpty(audience: Pick<BulkAudience, "listIds" | "segmentIds" | "contactIds">): boolean {
  return audience.listIds.length + audience.segmentIds.length + (audience.contactIds?.length ?? 0) === 0;
}

const idArray = (ids: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/**
 * `select id, phone_number` of every contact of the audience, once. Unknown list or segment ids
 * are 404 (as any other workspace's ids); an audience with nothing selected is a 422.
 */
export async function bulkAudienceSql(db: Executor, workspaceId: string, audience: Pick<BulkAudience, "listIds" | "segmentIds" | "contactIds" | "excludeContactIds">): Promise<SQL> {
  if (isAudienceEmpty(audience)) {
    throw validationFailed([{ path: "audience", code: "empty_audience", message: "Pick at least one list or segment." }]);
  }
  const parts: SQL[] = [];
  if (audience.listIds.length + audience.segmentIds.length > 0) {
    parts.push(await audienceContactsSql(db, workspaceId, { listIds: audience.listIds, segmentIds: audience.segmentIds }));
  }
  if (audience.contactIds && audience.contactIds.length > 0) {
    parts.push(sql`select c.id as id, c.phone_number as phone_number from contacts c
      where c.workspace_id = ${workspaceId} and c.opted_out_at is null and c.id in ${idArray(audience.contactIds)}`);
  }
  const union = parts.length === 1 ? parts[0]! : sql.join(parts, sql` union `);
  const excluded = audience.excludeContactIds ?? [];
  if (excluded.length === 0) return union;
  return sql`select a.id, a.phone_number from (${union}) a where a.id not in ${idArray(excluded)}`;
}

/** The one count of a bulk audience: the builder, the preview, the launch check and the launch all read it. */
export interface AudienceTotals {
  /** Contacts who get a message (unsubscribed contacts never): sent, or skipped for consent or an empty blank. */
  total: number;
  /** Of those, contacts left out for consent (`noConsentSql`): skipped at launch (`no_consent`). */
  noConsent: number;
  /** Of those with consent, contacts for whom some variable without a fallback has no value: skipped at launch (`variables_missing`). */
  withEmptyVariables: number;
  /** Of `total`: contacts who subscribed. */
  subscribed: number;
  /** Of `total`: contacts of unknown consent with an empty variable (skipped for it when they are included). */
  unknownWithEmptyVariables: number;
  /** Per variable key without a fallback: contacts of the audience with no value for it. */
  emptyByVariable: Record<string, number>;
}

/**
 * Counts an audience (`bulkAudienceSql`) in one statement: its size, by consent, and, given the
 * template's rendering, its contacts with an empty variable (overall and per variable).
 */
export async function countAudienceTotals(
  db: Executor,
  audienceSql: SQL,
  rendering: Pick<SqlRendering, "missing" | "missingJoins" | "missingByVariable"> | null,
  noConsent: SQL = sql`false`,
): Promise<AudienceTotals> {
  const perVariable = rendering?.missingByVariable ?? [];
  const [row] = await queryRows<Record<string, number | string>>(
    db,
    sql`select count(*)::int as total, (count(*) filter (where ${noConsent}))::int as no_consent,
        (count(*) filter (where c.consent_status = 'subscribed'))::int as subscribed,
        ${rendering ? sql`(count(*) filter (where (${rendering.missing}) and not ${noConsent}))::int` : sql`0`} as missing,
        ${rendering ? sql`(count(*) filter (where (${rendering.missing}) and c.consent_status <> 'subscribed'))::int` : sql`0`} as missing_unknown
        ${sql.join(perVariable.map((variable, index) => sql`, (count(*) filter (where ${variable.missing}))::int as ${sql.raw(`m${index}`)}`), sql``)}
      from (${audienceSql}) a join contacts c on c.id = a.id ${rendering ? rendering.missingJoins : sql``}`,
  );
  return {
    total: Number(row?.total ?? 0),
    noConsent: Number(row?.no_consent ?? 0),
    withEmptyVariables: Number(row?.missing ?? 0),
    subscribed: Number(row?.subscribed ?? 0),
    unknownWithEmptyVariables: Number(row?.missing_unknown ?? 0),
    emptyByVariable: Object.fromEntries(perVariable.map((variable, index) => [variable.key, Number(row?.[`m${index}`] ?? 0)])),
  };
}

export interface AudienceCount {
  count: number;
  optedOutExcluded: number;
  /** Of `count`: contacts by consent (a marketing template reaches only `subscribed` unless unknown is included). */
  consent: { subscribed: number; unknown: number };
}

/** The live count, and how many contacts the lists and segments select who opted out. */
export async function countBulkAudience(db: Executor, workspaceId: string, audience: Pick<BulkAudience, "listIds" | "segmentIds" | "contactIds" | "excludeContactIds">): Promise<AudienceCount> {
  const audienceSql = await bulkAudienceSql(db, workspaceId, audience);
  const selectors: SQL[] = [];
  const listIds = [...new Set(audience.listIds)];
  for (const id of listIds) await loadList(db, workspaceId, id);
  if (listIds.length > 0) {
    selectors.push(sql`exists (select 1 from contact_list_members am where am.contact_id = ${c.id} and am.list_id in ${idArray(listIds)})`);
  }
  for (const id of new Set(audience.segmentIds)) selectors.push(compileSegmentFilter(await segmentFilter(db, workspaceId, id)));
  if (audience.contactIds && audience.contactIds.length > 0) selectors.push(sql`${c.id} in ${idArray(audience.contactIds)}`);
  const excluded = audience.excludeContactIds ?? [];
  const { total: count, subscribed } = await countAudienceTotals(db, audienceSql, null);
  const [row] = await queryRows<{ opted_out: number | string }>(
    db,
    sql`select (select count(*) from contacts c where ${c.workspaceId} = ${workspaceId} and ${c.optedOutAt} is not null
        and (${sql.join(selectors, sql` or `)})
        ${excluded.length > 0 ? sql`and ${c.id} not in ${idArray(excluded)}` : sql``})::int as opted_out`,
  );
  return { count, optedOutExcluded: Number(row?.opted_out ?? 0), consent: { subscribed, unknown: count - subscribed } };
}
