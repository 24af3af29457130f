// Maintained message counts (db/schema.ts `campaign_message_counts`, kept by the statement triggers
// of migration 0037): what the funnel reads instead of counting a campaign's messages. Every read adds
// the folded counts and the deltas not folded yet in one statement, so it is exact whether or not
// the `campaigns.counts` job has run; the fold only keeps the delta table small.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { MessageStatus } from "@/db/schema";

/** Counts of one campaign (or day): messages per stored status and the replied ones. */
export interface StatusCounts {
  counts: Partial<Record<MessageStatus, number>>;
  replied: number;
}

function scopeWhere(workspaceId: string, campaignIds: string[] | undefined, extra?: SQL): SQL {
  const conditions = [sql`workspace_id = ${workspaceId}`];
  if (campaignIds) conditions.push(sql`campaign_id in ${campaignIds}`);
  if (extra) conditions.push(extra);
  return sql.join(conditions, sql` and `);
}

function addRow(target: StatusCounts, status: MessageStatus, messages: number, replied: number): void {
  target.counts[status] = (target.counts[status] ?? 0) + messages;
  target.replied += replied;
}

/** Counts grouped by campaign or by day: the folded ones and the deltas added in one statement. */
async function readCounts(db: Executor, by: "campaign" | "day", where: SQL): Promise<Map<string, StatusCounts>> {
  const key = by === "day" ? sql`to_char(day, 'YYYY-MM-DD')` : sql`campaign_id`;
  const rows = await queryRows<{ key: string; status: MessageStatus; messages: string | number; replied: string | number }>(
    db,
    sql`select ${key} as key, status, sum(messages)::bigint as messages, sum(replied)::bigint as replied from (
        select campaign_id, day, status, messages, replied from campaign_message_counts where ${where}
        union all
        select campaign_id, day, status, messages, replied from campaign_message_count_deltas where ${where}
      ) counted group by 1, status`,
  );
  const result = new Map<string, StatusCounts>();
  for (const row of rows) {
    const entry = result.get(row.key) ?? { counts: {}, replied: 0 };
    addRow(entry, row.status, Number(row.messages), Number(row.replied));
    result.set(row.key, entry);
  }
  return result;
}

/** Maintained counts per campaign of the workspace (only `campaignIds` when given; none for an empty list). */
export async function countsByCampaign(db: Executor, workspaceId: string, campaignIds?: string[]): Promise<Map<string, StatusCounts>> {
  if (campaignIds?.length === 0) return new Map();
  return readCounts(db, "campaign", scopeWhere(workspaceId, campaignIds));
}

/** The scope's counts together (every campaign of the workspace, or those given). */
export async function countsTogether(db: Executor, workspaceId: string, campaignIds?: string[]): Promise<StatusCounts> {
  const total: StatusCounts = { counts: {}, replied: 0 };
  for (const entry of (await countsByCampaign(db, workspaceId, campaignIds)).values()) {
    for (const [status, messages] of Object.entries(entry.counts) as [MessageStatus, number][]) addRow(total, status, messages, 0);
    total.replied += entry.replied;
  }
  return total;
}

/** Maintained counts per UTC day of creation (`YYYY-MM-DD`) from `fromDay` to `toDay` inclusive. */
export async function countsByDay(
  db: Executor,
  workspaceId: string,
  campaignIds: string[] | undefined,
  fromDay: string,
  toDay: string,
): Promise<Map<string, StatusCounts>> {
  if (campaignIds?.length === 0) return new Map();
  return readCounts(db, "day", scopeWhere(workspaceId, campaignIds, sql`day between ${fromDay}::date and ${toDay}::date`));
}

/**
 * Folds up to `limit` deltas into the counts in one statement (so a reader sees them either as
 * deltas or folded, never both or neither). Deltas of a deleted campaign are dropped. Rows are
 * written in key order, so two folds at once cannot deadlock; a second fold skips the deltas the
 * first one deleted.
 */
export async function foldCountDeltas(db: Executor, limit = 50_000): Promise<number> {
  const [row] = await queryRows<{ folded: number | string }>(
    db,
    sql`with moved as (
        delete from campaign_message_count_deltas
        where ctid = any(array(select ctid from campaign_message_count_deltas limit ${limit}))
        returning workspace_id, campaign_id, day, status, messages, replied
      ), summed as (
        select campaign_id, min(workspace_id) as workspace_id, day, status, sum(messages) as messages, sum(replied) as replied
        from moved group by campaign_id, day, status
      ), written as (
        insert into campaign_message_counts (campaign_id, workspace_id, day, status, messages, replied)
        select s.campaign_id, s.workspace_id, s.day, s.status, s.messages, s.replied
        from summed s
        where exists (select 1 from campaigns c where c.id = s.campaign_id)
        order by s.campaign_id, s.day, s.status
        on conflict (campaign_id, day, status) do update
          set messages = campaign_message_counts.messages + excluded.messages,
              replied = campaign_message_counts.replied + excluded.replied
        returning 1
      )
      select (select count(*) from moved)::int as folded, (select count(*) from written)::int as written`,
  );
  return Number(row?.folded ?? 0);
}
