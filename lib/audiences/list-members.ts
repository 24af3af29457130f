// Adding to a list from a request body: ids and phones (lists.ts), or every contact a saved segment
// selects now, in one set-based statement.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { addListMembers, countMembers, loadList, MAX_MEMBERSHIP_BATCH, membershipSchema, type MembershipResult } from "./lists";
import { compileSegmentFilter, segmentFilter } from "./segments";

/** `POST /lists/{id}/contacts`: ids and phones, or every contact a segment selects now. */
export const addMembershipSchema = z
  .object({
    contactIds: membershipSchema.shape.contactIds,
    phones: membershipSchema.shape.phones,
    segmentId: z.string().min(1).max(64).optional().meta({ description: "Adds every contact the saved segment selects now (any number, one statement); not with contactIds or phones." }),
  })
  .superRefine((body, ctx) => {
    const total = (body.contactIds?.length ?? 0) + (body.phones?.length ?? 0);
    if (body.segmentId !== undefined) {
      if (total > 0) ctx.addIssue({ code: "custom", path: ["segmentId"], message: "Send segmentId alone, without contactIds or phones." });
      return;
    }
    if (total === 0) ctx.addIssue({ code: "custom", path: ["contactIds"], message: "Send contactIds, phones, both, or a segmentId." });
    if (total > MAX_MEMBERSHIP_BATCH) ctx.addIssue({ code: "custom", path: ["contactIds"], message: `At most ${MAX_MEMBERSHIP_BATCH} contacts per request.` });
  });
export type AddMembershipInput = z.output<typeof addMembershipSchema>;

/**
 * Every contact the segment selects now joins the list: one INSERT … SELECT; members already in are
 * left alone, so adding the same segment again changes nothing. Another workspace's list or segment
 * is a 404.
 */
export async function addSegmentToList(db: Executor, workspaceId: string, listId: string, segmentId: string): Promise<MembershipResult> {
  await loadList(db, workspaceId, listId);
  const condition = compileSegmentFilter(await segmentFilter(db, workspaceId, segmentId));
  const inserted = await queryRows<{ contact_id: string }>(
    db,
    sql`insert into contact_list_members (list_id, contact_id)
      select ${listId}, c.id from contacts c where c.workspace_id = ${workspaceId} and ${condition}
      on conflict do nothing
      returning contact_id`,
  );
  return { listId, changed: inserted.length, unknownContactIds: [], unknownPhones: [], contactCount: await countMembers(db, listId) };
}

/** `POST /lists/{id}/contacts`. */
export async function addToList(db: Executor, workspaceId: string, listId: string, input: AddMembershipInput): Promise<MembershipResult> {
  if (input.segmentId !== undefined) return addSegmentToList(db, workspaceId, listId, input.segmentId);
  return addListMembers(db, workspaceId, listId, { contactIds: input.contactIds, phones: input.phones });
}
