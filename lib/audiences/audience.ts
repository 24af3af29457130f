// An audience: the union of some lists and segments, never with an opted-out contact. Counts and
// the bulk sender's snapshot both read it from here.
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { validationFailed } from "@/lib/http/errors";
import { loadList } from "./lists";
import { c, compileSegmentFilter, segmentFilter } from "./segments";

export interface AudienceSelection {
  listIds?: string[];
  segmentIds?: string[];
}

/**
 * `select c.id, c.phone_number from contacts c where …`: each contact of the audience once
 * (one row per contact by construction, however many lists and segments select it). Unknown list
 * or segment ids are 404, as for any other id of another workspace. Async because segment filters
 * are stored rows compiled here.
 */
export async function audienceContactsSql(db: Executor, workspaceId: string, selection: AudienceSelection): Promise<SQL> {
  const listIds = [...new Set(selection.listIds ?? [])];
  const segmentIds = [...new Set(selection.segmentIds ?? [])];
  if (listIds.length + segmentIds.length === 0) {
    throw validationFailed([{ path: "audience", code: "empty_audience", message: "Pick at least one list or segment." }]);
  }
  for (const id of listIds) await loadList(db, workspaceId, id);
  const parts: SQL[] = [];
  if (listIds.length > 0) {
    parts.push(sql`exists (select 1 from contact_list_members am where am.contact_id = ${c.id} and am.list_id in (${sql.join(
      listIds.map((id) => sql`${id}`),
      sql`, `,
    )}))`);
  }
  for (const id of segmentIds) parts.push(compileSegmentFilter(await segmentFilter(db, workspaceId, id)));
  return sql`select ${c.id} as id, ${c.phoneNumber} as phone_number from contacts c
    where ${c.workspaceId} = ${workspaceId} and ${c.optedOutAt} is null and (${sql.join(parts, sql` or `)})`;
}

export async function countAudience(db: Executor, workspaceId: string, selection: AudienceSelection): Promise<number> {
  const inner = await audienceContactsSql(db, workspaceId, selection);
  const [row] = await queryRows<{ count: number | string }>(db, sql`select count(*)::int as count from (${inner}) audience`);
  return Number(row?.count ?? 0);
}
