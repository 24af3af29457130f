// The one cumulative funnel of a campaign's messages: a read message was also sent and delivered,
// so sent ≥ delivered ≥ read; replied, failed and skipped apart; test sends never counted. The campaigns
// list, the campaign page, bulk progress, the logs and the API's counts all count through here.
// Unfiltered scopes read the maintained counts (counts.ts); filtered ones (a phone, dates) count rows.
import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messages, type MessageStatus } from "@/db/schema";
import { countsByCampaign, countsByDay, countsTogether, type StatusCounts } from "./counts";

export interface Funnel {
  /** Not sent yet: queued (due, retrying or held) or being sent. */
  queued: number;
  /** Left for WhatsApp: sent, delivered or read. */
  sent: number;
  /** Arrived: delivered or read. */
  delivered: number;
  read: number;
  failed: number;
  /** Deliberately not sent (opted out, cancelled, variables missing…). */
  skipped: number;
  /**
   * Messages the contact replied to (`replied_at`, lib/inbound/conversation-activity.ts). Beside the
   * steps, not below read: a reply can come to a message whose read receipt never arrived.
   */
  replied: number;
}

/** The funnel steps that count stored statuses (every one but `replied`). */
export type FunnelStatusStep = Exclude<keyof Funnel, "replied">;

/** Which stored statuses each funnel step counts. */
export const FUNNEL_STATUSES: Record<FunnelStatusStep, MessageStatus[]> = {
  queued: ["queued", "sending"],
  sent: ["sent", "delivered", "read"],
  delivered: ["delivered", "read"],
  read: ["read"],
  failed: ["failed"],
  skipped: ["skipped"],
};

/** Messages a campaign's counts include (test sends are not). */
export const COUNTED_MESSAGES: SQL = sql`source in ('trigger', 'bulk')`;

export function emptyFunnel(): Funnel {
  return { queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0 };
}

/** The funnel from message counts per stored status (e.g. a `group by status`) and the replied count. */
export function funnelFromStatusCounts(counts: Partial<Record<MessageStatus, number>>, replied = 0): Funnel {
  const funnel = emptyFunnel();
  for (const step of Object.keys(FUNNEL_STATUSES) as FunnelStatusStep[]) {
    funnel[step] = FUNNEL_STATUSES[step].reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  }
  funnel.replied = replied;
  return funnel;
}

/**
 * Counted in the same pass as the statuses: the funnel's rows are read from the heap anyway (no
 * index covers its `source in (…)`), so this adds no scan.
 */
const repliedCount = sql<number>`(count(*) filter (where ${messages.repliedAt} is not null))::int`;

/** Every message counted once: queued + sent + failed + skipped. */
export function funnelTotal(funnel: Funnel): number {
  return funnel.queued + funnel.sent + funnel.failed + funnel.skipped;
}

/** Which messages a funnel counts: one workspace, optionally some campaigns and further conditions. */
export interface FunnelScope {
  workspaceId: string;
  campaignIds?: string[];
  /** Further conditions on `messages` (the logs' phone and date filters). */
  where?: SQL;
}

function funnelWhere(scope: FunnelScope): SQL {
  const conditions: SQL[] = [eq(messages.workspaceId, scope.workspaceId), COUNTED_MESSAGES];
  if (scope.campaignIds) conditions.push(inArray(messages.campaignId, scope.campaignIds));
  if (scope.where) conditions.push(scope.where);
  return and(...conditions)!;
}

/**
 * The one funnel query: counts per campaign of the scope, test sends left out. The campaigns list,
 * the campaign page and the logs tiles (and the API's counts) all read through here or through
 * `funnelFromStatusCounts`, so the same messages give the same numbers everywhere.
 */
export async function countFunnelsByCampaign(db: Executor, scope: FunnelScope): Promise<Map<string, Funnel>> {
  const result = new Map<string, Funnel>();
  if (scope.campaignIds?.length === 0) return result;
  if (!scope.where) {
    for (const [campaignId, { counts, replied }] of await countsByCampaign(db, scope.workspaceId, scope.campaignIds)) {
      result.set(campaignId, funnelFromStatusCounts(counts, replied));
    }
    const pending = await pendingSnapshotCounts(db, scope.campaignIds ?? [...result.keys()]);
    for (const [campaignId, counts] of pending) result.set(campaignId, withPendingSnapshot(result.get(campaignId) ?? emptyFunnel(), counts));
    return result;
  }
  const rows = await db
    .select({ campaignId: messages.campaignId, status: messages.status, count: sql<number>`count(*)::int`, replied: repliedCount })
    .from(messages)
    .where(funnelWhere(scope))
    .groupBy(messages.campaignId, messages.status);
  const byCampaign = new Map<string, StatusCounts>();
  for (const row of rows) {
    if (row.campaignId === null) continue;
    const entry = byCampaign.get(row.campaignId) ?? { counts: {}, replied: 0 };
    entry.counts[row.status] = (entry.counts[row.status] ?? 0) + Number(row.count);
    entry.replied += Number(row.replied);
    byCampaign.set(row.campaignId, entry);
  }
  for (const [campaignId, { counts, replied }] of byCampaign) result.set(campaignId, funnelFromStatusCounts(counts, replied));
  return result;
}

/** A funnel with the contacts of pending snapshot chunks added (they are queued messages about to be written). */
export function withPendingSnapshot(funnel: Funnel, pending: PendingSnapshotCounts | undefined): Funnel {
  if (!pending) return funnel;
  return { ...funnel, queued: funnel.queued + pending.queued, skipped: funnel.skipped + pending.skipped };
}

/** The funnel of every message in the scope together (one campaign, or the whole workspace). */
export async function countFunnel(db: Executor, scope: FunnelScope): Promise<Funnel> {
  if (scope.where) {
    const rows = await db
      .select({ status: messages.status, count: sql<number>`count(*)::int`, replied: repliedCount })
      .from(messages)
      .where(funnelWhere(scope))
      .groupBy(messages.status);
    return funnelFromStatusCounts(
      Object.fromEntries(rows.map((row) => [row.status, Number(row.count)])),
      rows.reduce((sum, row) => sum + Number(row.replied), 0),
    );
  }
  const { counts, replied } = await countsTogether(db, scope.workspaceId, scope.campaignIds);
  const funnel = funnelFromStatusCounts(counts, replied);
  const campaignIds =
    scope.campaignIds ??
    (await queryRows<{ campaign_id: string }>(db, sql`select distinct campaign_id from bulk_snapshot_chunks where workspace_id = ${scope.workspaceId}`)).map((r) => r.campaign_id);
  const pending = await pendingSnapshotCounts(db, campaignIds);
  return [...pending.values()].reduce(withPendingSnapshot, funnel);
}

export interface PendingSnapshotCounts {
  /** Contacts whose messages are not written yet: due now, held by the daily tier, or to be skipped. */
  queued: number;
  held: number;
  skipped: number;
}

/**
 * Per campaign, the contacts of its bulk snapshot chunks whose messages are not written yet
 * (lib/bulk/snapshot.ts): queued (held ones included), or skipped once the campaign is cancelled.
 */
export async function pendingSnapshotCounts(db: Executor, campaignIds: string[]): Promise<Map<string, PendingSnapshotCounts>> {
  const result = new Map<string, PendingSnapshotCounts>();
  if (campaignIds.length === 0) return result;
  const rows = await queryRows<{ campaign_id: string; cancelled: boolean; queued: number | string; held: number | string; skipped: number | string }>(
    db,
    sql`select k.campaign_id, bool_or(c.status = 'cancelled') as cancelled,
        sum(k.queued)::int as queued, sum(k.held)::int as held, sum(k.skipped)::int as skipped
      from bulk_snapshot_chunks k join campaigns c on c.id = k.campaign_id
      where k.campaign_id in (select jsonb_array_elements_text(${JSON.stringify(campaignIds)}::jsonb))
      group by k.campaign_id`,
  );
  for (const row of rows) {
    const queued = Number(row.queued);
    const held = Number(row.held);
    const skipped = Number(row.skipped);
    result.set(row.campaign_id, row.cancelled ? { queued: 0, held: 0, skipped: queued + held + skipped } : { queued: queued + held, held, skipped });
  }
  return result;
}

/** Messages of one UTC day, by what became of them (same rules as the funnel). */
export interface FunnelDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Every counted message created that day. */
  total: number;
  /** Of those: sent, delivered or read. */
  sent: number;
  failed: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Counted messages per UTC day for the last `days` days up to `now` (oldest first, empty days included). */
export async function messagesPerDay(
  db: Executor,
  scope: FunnelScope,
  { days = 7, now = new Date() }: { days?: number; now?: Date } = {},
): Promise<FunnelDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * DAY_MS);
  const end = new Date(today + DAY_MS);
  const keys = Array.from({ length: days }, (_, i) => new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  if (!scope.where) {
    const byDay = await countsByDay(db, scope.workspaceId, scope.campaignIds, keys[0]!, keys.at(-1)!);
    return keys.map((key) => {
      const funnel = funnelFromStatusCounts(byDay.get(key)?.counts ?? {});
      return { day: key, total: funnelTotal(funnel), sent: funnel.sent, failed: funnel.failed };
    });
  }
  const day = sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      total: sql<number>`count(*)::int`,
      sent: sql<number>`(count(*) filter (where ${inArray(messages.status, FUNNEL_STATUSES.sent)}))::int`,
      failed: sql<number>`(count(*) filter (where ${inArray(messages.status, FUNNEL_STATUSES.failed)}))::int`,
    })
    .from(messages)
    .where(and(funnelWhere(scope), gte(messages.createdAt, start), lt(messages.createdAt, end)))
    .groupBy(day);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return keys.map((key) => {
    const row = byDay.get(key);
    return { day: key, total: Number(row?.total ?? 0), sent: Number(row?.sent ?? 0), failed: Number(row?.failed ?? 0) };
  });
}
