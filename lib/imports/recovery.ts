// Work on an import that its process left behind: an upload cut off, a merge that never finished
// (the process was killed, or restarted by a deploy). Each job names the claim owner of the process
// storing or merging it (`owner`, lib/messaging/owner.ts): once that process is gone (its lock is
// free) the work is taken over at once; a job whose owner still looks alive is taken over only when
// it has not moved for a while (a merge moves with every range it commits). Found when the job is
// read (GET /imports/{id}) and by the background job `imports.recovery` (./jobs.ts), which resumes
// jobs nobody reads.
import { sql, type SQL } from "drizzle-orm";
import { isEmbedded, type Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { claimOwnerFor, claimOwnerGone } from "@/lib/messaging/owner";
import { MERGE_CONNECTIONS, runImport } from "./merge";

export const STALE_MERGE_MS = 30_000;
export const STALE_UPLOAD_MS = 10 * 60_000;

export interface StaleAfter {
  staleMergeMs?: number;
  staleUploadMs?: number;
}

/**
 * The merge, then the cleanup of the staged rows it no longer needs (refused rows stay for the
 * rejected-rows download). Safe to call more than once: only a stored, unmerged job is merged.
 * With a deadline it starts no range after it (the job is given up, for the next recovery pass).
 */
export async function processImport(db: Executor, workspaceId: string, importId: string, options: { deadline?: number } = {}): Promise<void> {
  const counts = await runImport(db, workspaceId, importId, { connections: isEmbedded() ? 1 : MERGE_CONNECTIONS, deadline: options.deadline });
  if (counts) await db.execute(sql`delete from contact_import_rows where import_id = ${importId} and error is null`);
}

/** In SQL: a `processing` job (alias `j`) that another process left behind, as this process (`current`) sees it. */
function leftBehind(current: number, options: StaleAfter): SQL {
  const gone = claimOwnerGone(sql`j.owner`, current);
  const mergeMs = options.staleMergeMs ?? STALE_MERGE_MS;
  const uploadMs = options.staleUploadMs ?? STALE_UPLOAD_MS;
  return sql`(j.status = 'processing' and (
      -- A stored file: its merge given up (no owner), its owner gone, or no range merged for a while.
      (j.started_at is not null and (j.owner is null or ${gone} or j.updated_at < now() - make_interval(secs => ${mergeMs / 1000})))
      -- An upload: its process gone, or nothing received for a while.
      or (j.started_at is null and ((j.owner is not null and ${gone}) or j.updated_at < now() - make_interval(secs => ${uploadMs / 1000})))))`;
}

/**
 * Takes over a job left behind (see the file's comment): a stored file is to be merged again from
 * the ranges not yet merged (each range is one transaction, so a crash left none half-merged; a
 * merger still running only shares the ranges left), and this process becomes its owner; an upload
 * goes back to `awaiting_file` (its staged rows deleted) so the file can be sent again.
 */
export async function recoverImport(db: Executor, workspaceId: string, id: string, options: StaleAfter = {}): Promise<"merge" | "reset" | null> {
  const current = await claimOwnerFor(db).ensure();
  // One statement: an upload given back never keeps the staged rows of the file it lost.
  const [row] = await queryRows<{ action: "merge" | "reset" }>(
    db,
    sql`with taken as (
        update contact_imports set updated_at = now(),
          status = case when started_at is null then 'awaiting_file' else status end,
          rows_read = case when started_at is null then 0 else rows_read end,
          owner = case when started_at is null then null else ${current}::int end
        where id = (
          -- A merge planning its ranges holds the job's row lock: skipped, so reading never waits for it.
          select j.id from contact_imports j
          where j.id = ${id} and j.workspace_id = ${workspaceId} and ${leftBehind(current, options)}
          for update skip locked)
        returning case when started_at is null then 'reset' else 'merge' end as action
      ),
      dropped as (
        delete from contact_import_rows where import_id = ${id} and exists (select 1 from taken where action = 'reset')
      )
      select action from taken`,
  );
  return row?.action ?? null;
}

export interface RecoveryPass {
  /** Merges resumed (completed, or stopped by the deadline and given up for the next pass). */
  resumed: number;
  /** Uploads given back to `awaiting_file`. */
  reset: number;
}

/** Every job left behind, oldest first, taken over one after another until the deadline. */
export async function recoverAbandonedImports(db: Executor, options: StaleAfter & { deadline: number }): Promise<RecoveryPass> {
  const current = await claimOwnerFor(db).ensure();
  const jobs = await queryRows<{ id: string; workspace_id: string }>(
    db,
    sql`select j.id, j.workspace_id from contact_imports j where ${leftBehind(current, options)} order by j.updated_at limit 20`,
  );
  const pass: RecoveryPass = { resumed: 0, reset: 0 };
  for (const job of jobs) {
    if (Date.now() >= options.deadline) break;
    const action = await recoverImport(db, job.workspace_id, job.id, options);
    if (action === "reset") pass.reset++;
    if (action !== "merge") continue;
    pass.resumed++;
    await processImport(db, job.workspace_id, job.id, { deadline: options.deadline });
  }
  return pass;
}
