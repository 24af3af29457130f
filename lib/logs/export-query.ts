// What the CSV export reads: the columns (fixed ones, then one per mapped contact attribute), the
// raw values as the database formats them, and the keyset batches of the embedded path. Both
// export paths select the same rows in the same order through `logWhere`.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, keysetCondition } from "@/db/cursor";
import { contacts, inboundMessages, messages, type MessageStatus } from "@/db/schema";
import type { MessageConfig, TriggerConfig } from "@/lib/campaigns/schemas";
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE } from "@/lib/contacts/identifiers";
import type { LogFilters } from "./filters";
import { inboundLogWhere, listsInbound, listsOutbound, logWhere, type LogScope } from "./query";

export const LOG_CSV_COLUMNS = [
  "created_at",
  "message_id",
  "phone_number",
  "template",
  "message",
  "status",
  "error_code",
  "error_reason",
  "sent_at",
  "delivered_at",
  "read_at",
  "replied_at",
  "direction",
  "source",
] as const;

/**
 * The journey step that sent the message (`remind (Reminder)`: its id, and its name in the run's
 * journey version); empty for a campaign's one message, bulk and replies. Always the last column, so
 * readers by position see the columns before it where they were.
 */
export const JOURNEY_STEP_COLUMN = "journey_step";

/** The journey step cell's text: the step id, with the step's name from the run's version when it has one. */
export const journeyStepLabel = sql<string | null>`case when ${messages.journeyStepId} is null then null else ${messages.journeyStepId} || coalesce(' (' || nullif((
    select step ->> 'name' from journey_runs r
    join journey_versions v on v.campaign_id = r.campaign_id and v.version = r.version
    cross join lateral jsonb_array_elements(case when jsonb_typeof(v.document -> 'steps') = 'array' then v.document -> 'steps' else '[]'::jsonb end) step
    where r.id = ${messages.journeyRunId} and step ->> 'id' = ${messages.journeyStepId}
    limit 1), '') || ')', '') end`;

/** The `source` cell of a reply (a message sent has its own: `trigger`, `bulk` or `test`). */
export const REPLY_SOURCE = "reply";

/**
 * Columns that hold free text and are always quoted (when not empty): papaparse quotes a value
 * with a leading or trailing space and COPY does not, so both paths quote these columns whole.
 */
export const QUOTED_COLUMNS: ReadonlySet<string> = new Set(["phone_number", "template", "message", "error_code", "error_reason", JOURNEY_STEP_COLUMN]);

/** `attributes.city`: cannot collide with a fixed column. */
export const attributeColumn = (key: string) => `attributes.${key}`;

/** Every contact attribute the campaign maps (trigger fields, then template variables), phone excluded. */
export function mappedExportAttributes(campaign: { triggerConfig: TriggerConfig; messageConfig: MessageConfig }): string[] {
  const keys = [
    ...campaign.triggerConfig.fields.map((field) => field.attribute),
    ...campaign.messageConfig.variables.flatMap((variable) => (variable.attribute ? [variable.attribute] : [])),
  ];
  return [...new Set(keys)].filter((key) => key !== PHONE_ATTRIBUTE);
}

/** The CSV header: the fixed columns, one column per attribute, then the journey step. */
export function exportColumnNames(attributeKeys: readonly string[]): string[] {
  return [...LOG_CSV_COLUMNS, ...attributeKeys.map(attributeColumn), JOURNEY_STEP_COLUMN];
}

/** ISO 8601 UTC with milliseconds, formatted by the database on both paths. */
export const isoUtc = (column: SQL | typeof messages.createdAt | typeof messages.sentAt | typeof messages.repliedAt | typeof inboundMessages.createdAt) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The contact's current value of an attribute as text (JSON text for objects and arrays); null when unset. */
export function attributeValue(key: string): SQL<string | null> {
  return key === NAME_ATTRIBUTE ? sql<string | null>`${contacts.name}` : sql<string | null>`${contacts.attributes} ->> ${key}`;
}

// Spelled out to match the indexes (`created_at DESC NULLS LAST, id DESC NULLS LAST`).
export const exportOrder = sql`${messages.createdAt} desc nulls last, ${messages.id} desc nulls last`;
export const inboundExportOrder = sql`${inboundMessages.createdAt} desc nulls last, ${inboundMessages.id} desc nulls last`;

/**
 * The `message` cell of a reply: what the contact sent, by kind (`Button: Track order`,
 * `image (image/jpeg): caption`, `Location: Office`, `Reacted 👍`). Both export paths use it.
 */
export const inboundMessageText = sql<string>`case ${inboundMessages.kind}
  when 'text' then coalesce(${inboundMessages.text}, '')
  when 'button' then 'Button: ' || coalesce(${inboundMessages.text}, ${inboundMessages.payload}, '')
  when 'interactive' then 'Reply: ' || coalesce(${inboundMessages.text}, ${inboundMessages.payload}, '')
  when 'media' then concat_ws(' ', coalesce(${inboundMessages.media} ->> 'kind', 'media'), '(' || (${inboundMessages.media} ->> 'mimeType') || ')',
    ${inboundMessages.media} ->> 'filename') || coalesce(': ' || (${inboundMessages.media} ->> 'caption'), '')
  when 'location' then 'Location: ' || coalesce(nullif(concat_ws(', ', ${inboundMessages.location} ->> 'name', ${inboundMessages.location} ->> 'address'), ''),
    (${inboundMessages.location} ->> 'latitude') || ', ' || (${inboundMessages.location} ->> 'longitude'))
  when 'reaction' then case when coalesce(${inboundMessages.reaction} ->> 'emoji', '') = '' then 'Removed a reaction' else 'Reacted ' || (${inboundMessages.reaction} ->> 'emoji') end
  else 'Unsupported message' end`;

/** One exported message, raw: the embedded path formats it into cells in JS. */
export interface RawExportRow {
  createdAt: string;
  id: string;
  direction: "outbound" | "inbound";
  phoneNumber: string;
  /** Null for a reply (no template). */
  templateName: string | null;
  templateLanguage: string | null;
  renderedText: string;
  /** `received` for a reply. */
  status: MessageStatus | "received";
  errorCode: string | null;
  errorReason: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  /** When the contact first replied to the message; null for a reply itself. */
  repliedAt: string | null;
  /** How the message was sent (`trigger`, `bulk`, `test`), `reply` for a reply. */
  source: string;
  position: string;
  attributes: (string | null)[];
  /** The journey step that sent it (`journeyStepLabel`); null otherwise. */
  journeyStep: string | null;
}

export const EXPORT_BATCH_SIZE = 10_000;

/** The chosen contact attributes as one JSON array column (empty without any). */
function attributesColumn(attributeKeys: readonly string[]) {
  return attributeKeys.length
    ? sql<(string | null)[]>`json_build_array(${sql.join(attributeKeys.map(attributeValue), sql`, `)})`
    : sql<(string | null)[]>`'[]'::json`;
}

/** One keyset batch of the export, newest first (a query builder: awaitable, and explainable in tests). */
export function exportBatchQuery(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  attributeKeys: readonly string[],
  after: { createdAt: string; id: string } | undefined,
  size: number,
) {
  const where = after ? and(logWhere(scope, filters), keysetCondition(messages, { ...after, direction: "older" })) : logWhere(scope, filters);
  const attributes = attributesColumn(attributeKeys);
  const query = db
    .select({
      createdAt: isoUtc(messages.createdAt),
      id: messages.id,
      direction: sql<"outbound">`'outbound'`,
      phoneNumber: messages.phoneNumber,
      templateName: messages.templateName,
      templateLanguage: messages.templateLanguage,
      renderedText: messages.renderedText,
      status: messages.status,
      errorCode: messages.errorCode,
      errorReason: messages.errorReason,
      sentAt: isoUtc(messages.sentAt),
      deliveredAt: isoUtc(messages.deliveredAt),
      readAt: isoUtc(messages.readAt),
      repliedAt: isoUtc(messages.repliedAt),
      source: sql<string>`${messages.source}`,
      position: cursorTimestamp(messages.createdAt),
      attributes,
      journeyStep: journeyStepLabel,
    })
    .from(messages);
  const joined = attributeKeys.length ? query.leftJoin(contacts, eq(contacts.id, messages.contactId)) : query;
  return joined.where(where).orderBy(exportOrder).limit(size);
}

/** One keyset batch of the campaign's replies, in the same shape and order as `exportBatchQuery`. */
export function inboundExportBatchQuery(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  attributeKeys: readonly string[],
  after: { createdAt: string; id: string } | undefined,
  size: number,
) {
  const base = inboundLogWhere(scope, filters);
  const where = after ? and(base, keysetCondition(inboundMessages, { ...after, direction: "older" })) : base;
  const attributes = attributesColumn(attributeKeys);
  const query = db
    .select({
      createdAt: isoUtc(inboundMessages.createdAt),
      id: inboundMessages.id,
      direction: sql<"inbound">`'inbound'`,
      phoneNumber: inboundMessages.phoneNumber,
      templateName: sql<string | null>`null::text`,
      templateLanguage: sql<string | null>`null::text`,
      renderedText: inboundMessageText,
      status: sql<"received">`'received'`,
      errorCode: sql<string | null>`null::text`,
      errorReason: sql<string | null>`null::text`,
      sentAt: sql<string | null>`null::text`,
      deliveredAt: sql<string | null>`null::text`,
      readAt: sql<string | null>`null::text`,
      repliedAt: sql<string | null>`null::text`,
      source: sql<string>`${REPLY_SOURCE}::text`,
      position: cursorTimestamp(inboundMessages.createdAt),
      attributes,
      journeyStep: sql<string | null>`null::text`,
    })
    .from(inboundMessages);
  const joined = attributeKeys.length ? query.leftJoin(contacts, eq(contacts.id, inboundMessages.contactId)) : query;
  return joined.where(where).orderBy(inboundExportOrder).limit(size);
}

const parsedAttributes = <T extends { attributes: unknown }>(row: T) => ({
  ...row,
  attributes: typeof row.attributes === "string" ? (JSON.parse(row.attributes) as (string | null)[]) : row.attributes,
});

/** Sent messages and replies at the same position differ in their id's first letter (`inm_`, `msg_`). */
const newerFirst = (a: RawExportRow, b: RawExportRow) => (a.position !== b.position ? a.position > b.position : a.id > b.id);

async function fetchBatch(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  attributeKeys: readonly string[],
  after: { createdAt: string; id: string } | undefined,
  size: number,
): Promise<RawExportRow[]> {
  const [outbound, inbound] = await Promise.all([
    listsOutbound(filters) ? exportBatchQuery(db, scope, filters, attributeKeys, after, size) : [],
    listsInbound(scope, filters) ? inboundExportBatchQuery(db, scope, filters, attributeKeys, after, size) : [],
  ]);
  const a = outbound.map(parsedAttributes) as RawExportRow[];
  const b = inbound.map(parsedAttributes) as RawExportRow[];
  if (b.length === 0) return a;
  // Merged by comparing the two heads only: each side keeps the database's order.
  const rows: RawExportRow[] = [];
  let i = 0;
  let j = 0;
  while (rows.length < size && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && newerFirst(a[i]!, b[j]!))) rows.push(a[i++]!);
    else rows.push(b[j++]!);
  }
  return rows;
}

/**
 * Every matching message, newest first, in keyset batches. The next batch is requested while the
 * caller writes the current one; stopping the iteration (`return()`) issues no further query.
 */
export async function* rawExportBatches(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  attributeKeys: readonly string[] = [],
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<RawExportRow[], void, undefined> {
  let pending = fetchBatch(db, scope, filters, attributeKeys, undefined, batchSize);
  for (;;) {
    const batch = await pending;
    const last = batch.at(-1);
    const full = batch.length === batchSize;
    if (last && full) {
      pending = fetchBatch(db, scope, filters, attributeKeys, { createdAt: last.position, id: last.id }, batchSize);
      // Handled when awaited; this keeps an abandoned prefetch from becoming an unhandled rejection.
      pending.catch(() => {});
    }
    if (batch.length) yield batch;
    if (!full) return;
  }
}
