// The merge of a stored import, in parts: the staged rows are split into ranges of phone numbers,
// each range is merged in its own transaction (a few set-based statements for its contacts, their
// consent and the list membership), and on Postgres two connections merge ranges at once. A range
// is merged entirely or not at all, exactly once; a crash resumes at the ranges not yet merged,
// and the job's counters grow as ranges commit (the import's progress).
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { consentAssignmentsSql, consentChangeSql, newContactConsentSql } from "@/lib/contacts/consent";
import { newId, randomBase62 } from "@/lib/crypto/random";
import { claimOwnerFor } from "@/lib/messaging/owner";
import type { StoredOptions } from "./store";
import { describeError } from "@/lib/logging";
import { isUniqueViolation } from "@/lib/http/problem";

export interface MergeCounts {
  created: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  invalid: number;
}

export interface MergeOptions {
  /**
   * Connections merging ranges at once. A merge keeps one core of the database busy; with two
   * connections a million-row import takes the second (the server only waits meanwhile). The
   * embedded database runs one transaction at a time: 1 there.
   */
  connections?: number;
  /** Staged rows per range, about: a file up to this size is merged in one transaction. */
  chunkRows?: number;
  /**
   * Epoch ms after which no further range is started (a background job's run). A merge stopped by it
   * gives the job up (`owner` null), so the next recovery pass goes on at once from the ranges left.
   */
  deadline?: number;
}

export const MERGE_CONNECTIONS = 2;
const CHUNK_ROWS = 250_000;

class ImportFailure extends Error {}

/** From this size on, the merge's joins hash both sides instead of probing the phone index per row. */
const LARGE_IMPORT_ROWS = 20_000;

interface MergeJob {
  workspaceId: string;
  options: StoredOptions;
  listId: string | null;
  fileName: string;
  /** The staged rows each range holds, about: whether its joins hash. */
  large: boolean;
}

/**
 * Merges a job whose file is stored (`processing` with `started_at` set). A job in any other
 * state, or one another merge finished meanwhile, is left alone: `null`. Safe to run twice at
 * once (after a recovery): both merge the ranges left, each range once, and one completes the job.
 * Rules:
 * - duplicates inside the file: the last row of a phone wins, the earlier ones count as duplicates;
 * - new phones become contacts; existing ones change only with `updateExisting` and only when the
 *   name or an attribute differs (re-importing a file changes nothing);
 * - consent (lib/contacts/consent.ts, rule `import`): `unsubscribed` unsubscribes (method `import`,
 *   detail the file name) a contact who is not already; `subscribed` subscribes unknown contacts and
 *   those an import unsubscribed; `unknown` lifts only an import's unsubscribe; an empty cell
 *   changes nothing (new contacts: unknown). A CSV body of `POST /contacts/bulk` (`consentChange`)
 *   follows its JSON form instead: the caller's source and detail, rule `direct`;
 * - every valid contact joins the list (already a member: nothing happens).
 * A job that cannot be merged (rows lost on the way, its list deleted) fails before any range is
 * merged; a failure during the merge keeps the ranges merged before it, and the job says so.
 */
export async function runImport(db: Executor, workspaceId: string, importId: string, options: MergeOptions = {}): Promise<MergeCounts | null> {
  try {
    const owner = await claimOwnerFor(db).ensure();
    const job = await planMerge(db, workspaceId, importId, { chunkRows: options.chunkRows ?? CHUNK_ROWS, owner });
    if (!job) return null;
    const finished = await mergeRanges(db, importId, job, { connections: options.connections ?? 1, deadline: options.deadline ?? Infinity });
    if (!finished) {
      await db.execute(sql`update contact_imports set owner = null where id = ${importId} and owner = ${owner} and status = 'processing'`);
      return null;
    }
    return await completeMerge(db, importId);
  } catch (error) {
    const [merged] = await queryRows<{ n: number }>(db, sql`select (created + updated + unchanged)::int as n from contact_imports where id = ${importId}`);
    const kept = merged && merged.n > 0 ? `the ${merged.n} contacts merged before the failure were kept; import the file again to merge the rest.` : "nothing was imported. Create the import again.";
    const reason = error instanceof ImportFailure ? `${error.message}; ${kept}` : `The merge failed on the server; ${kept}`;
    if (!(error instanceof ImportFailure)) console.error(`Import ${importId} failed: ${describeError(error)}`);
    await db.execute(sql`update contact_imports set status = 'failed', error = ${reason}, finished_at = now(), updated_at = now()
      where id = ${importId} and status = 'processing'`);
    return null;
  }
}

/**
 * Checks the staged rows against the count read, resolves the list, registers the attributes and
 * plans the ranges (once: a resumed merge keeps its plan and the ranges merged). `null` when the
 * job is not a stored file waiting for its merge.
 */
async function planMerge(db: Executor, workspaceId: string, importId: string, { chunkRows, owner }: { chunkRows: number; owner: number }): Promise<MergeJob | null> {
  return db.transaction(async (tx) => {
    const [job] = await queryRows<{ status: string; started_at: unknown; options: StoredOptions; list_id: string | null; file_name: string; rows_read: number }>(
      tx,
      sql`select status, started_at, options, list_id, file_name, rows_read from contact_imports
          where id = ${importId} and workspace_id = ${workspaceId} for update`,
    );
    if (!job || job.status !== "processing" || job.started_at === null) return null;
    const listId = await resolveList(tx, workspaceId, job.options, job.list_id);
    await registerAttributes(tx, workspaceId, job.options);
    // A background job: a million rows on a busy server outlast the statement timeout requests are
    // held to (its statements took over 120 s at load average 10).
    await tx.execute(sql`set local statement_timeout = 0`);
    const [staged] = await queryRows<{ valid: number; invalid: number }>(
      tx,
      sql`select (count(*) filter (where error is null))::int as valid, (count(*) filter (where error is not null))::int as invalid
          from contact_import_rows where import_id = ${importId}`,
    );
    if (!staged) throw new Error("The count of staged rows returned no row.");
    // Every row read was staged, or the upload would have failed: fewer means rows were lost on the way.
    if (staged.valid + staged.invalid !== job.rows_read) {
      console.error(`Import ${importId} failed: ${job.rows_read} rows were read but ${staged.valid + staged.invalid} were staged.`);
      throw new ImportFailure(`Only ${staged.valid + staged.invalid} of the file's ${job.rows_read} rows were stored`);
    }
    // The staged rows arrived after the last statistics, and the planner cannot know how many
    // distinct phones they hold: it joins a large file row by row through the phone index
    // (minutes for a million rows). A large range is joined by hashing instead, with room to sort.
    await tx.execute(sql`analyze contact_import_rows`);
    const [planned] = await queryRows<{ ranges: number }>(tx, sql`select count(*)::int as ranges from contact_import_chunks where import_id = ${importId}`);
    let ranges = planned?.ranges ?? 0;
    if (ranges === 0) ranges = await planRanges(tx, importId, staged.valid, chunkRows);
    await tx.execute(sql`update contact_imports set list_id = ${listId}, invalid = ${staged.invalid}, owner = ${owner}, updated_at = clock_timestamp() where id = ${importId}`);
    return { workspaceId, options: job.options, listId, fileName: job.file_name, large: staged.valid / ranges > LARGE_IMPORT_ROWS };
  });
}

/**
 * Splits the valid staged rows into ranges of about `chunkRows` phones, at boundaries drawn from a
 * sample of about a thousand rows per range (the ranges need not be equal, only disjoint and
 * covering): [start, b1), [b1, b2), …, [bn, end), in the phone column's collation.
 */
async function planRanges(tx: Executor, importId: string, valid: number, chunkRows: number): Promise<number> {
  const wanted = Math.max(1, Math.ceil(valid / chunkRows));
  const step = Math.max(1, Math.floor(valid / (wanted * 1000)));
  const fractions = Array.from({ length: wanted - 1 }, (_, i) => (i + 1) / wanted);
  const bounds = fractions.length === 0 ? [] : await queryRows<{ phone: string }>(
    tx,
    sql`select distinct b.phone
        from unnest((
          select percentile_disc(${`{${fractions.join(",")}}`}::float8[]) within group (order by phone)
          from contact_import_rows where import_id = ${importId} and error is null and row_number % ${step} = 0
        )) as b(phone)
        where b.phone is not null
        order by 1`,
  );
  const starts: (string | null)[] = [null, ...bounds.map((b) => b.phone)];
  await tx.execute(sql`insert into contact_import_chunks (import_id, chunk, phone_from, phone_to)
    values ${sql.join(starts.map((from, i) => sql`(${importId}, ${i}, ${from}, ${starts[i + 1] ?? null})`), sql`, `)}
    on conflict do nothing`);
  return starts.length;
}

/**
 * Runs `connections` mergers side by side, each taking the next range nobody holds until none is
 * left (true) or the deadline passed (false); the first failure stops them all.
 */
async function mergeRanges(db: Executor, importId: string, job: MergeJob, { connections, deadline }: { connections: number; deadline: number }): Promise<boolean> {
  let failure: { error: unknown } | null = null;
  let cut = false;
  const merger = async () => {
    while (!failure) {
      if (Date.now() >= deadline) {
        cut = true;
        return;
      }
      try {
        if (!(await mergeNextRange(db, importId, job))) return;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, connections) }, merger));
  if (failure) throw (failure as { error: unknown }).error;
  return !cut;
}

/** One range in one transaction, its counts added to the job's: `false` when no range is left to take. */
async function mergeNextRange(db: Executor, importId: string, job: MergeJob): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    const claim = (skipHeld: boolean) =>
      queryRows<{ chunk: number; phone_from: string | null; phone_to: string | null }>(
        tx,
        sql`select r.chunk, r.phone_from, r.phone_to from contact_import_chunks r
            join contact_imports j on j.id = r.import_id and j.status = 'processing'
            where r.import_id = ${importId} and r.merged_at is null
            order by r.chunk limit 1
            for update of r ${skipHeld ? sql`skip locked` : sql``}`,
      );
    // A free range first; with none left, wait for those another transaction holds: a merger that
    // died leaves its range locked until its database session ends (after the statement it was
    // running), and the range is then merged here instead of at the next recovery.
    let [range] = await claim(true);
    if (!range) [range] = await claim(false);
    if (!range) return false;
    if (job.listId) {
      const [list] = await queryRows<{ id: string }>(tx, sql`select id from contact_lists where id = ${job.listId}`);
      if (!list) throw new ImportFailure("The list to add the contacts to was deleted");
    }
    if (job.large) await tx.execute(sql`set local work_mem = '128MB'`);
    const counts = await mergeRows(tx, importId, job, (column) => sql.join(
      [
        range.phone_from === null ? sql`true` : sql`${column} >= ${range.phone_from}`,
        range.phone_to === null ? sql`true` : sql`${column} < ${range.phone_to}`,
      ],
      sql` and `,
    ));
    await tx.execute(sql`update contact_import_chunks set merged_at = clock_timestamp() where import_id = ${importId} and chunk = ${range.chunk}`);
    // Last, so that a range merged beside it waits on the job's row only for a commit.
    await tx.execute(sql`update contact_imports set created = created + ${counts.created}, updated = updated + ${counts.updated},
        unchanged = unchanged + ${counts.unchanged}, updated_at = clock_timestamp()
      where id = ${importId}`);
    return true;
  });
}

/** Completes the job once every range is merged (one merger does: the other finds it done), with the report. */
async function completeMerge(db: Executor, importId: string): Promise<MergeCounts | null> {
  return db.transaction(async (tx) => {
    const [done] = await queryRows<MergeCounts>(
      tx,
      sql`update contact_imports set status = 'completed', error = null,
            duplicates = rows_read - invalid - created - updated - unchanged,
            finished_at = clock_timestamp(), updated_at = clock_timestamp()
          where id = ${importId} and status = 'processing'
            and not exists (select 1 from contact_import_chunks where import_id = ${importId} and merged_at is null)
          returning created, updated, unchanged, duplicates, invalid`,
    );
    if (!done) return null;
    await tx.execute(sql`delete from contact_import_chunks where import_id = ${importId}`);
    return done;
  });
}

async function resolveList(tx: Executor, workspaceId: string, options: StoredOptions, current: string | null): Promise<string | null> {
  const wanted = options.listId ?? current;
  if (wanted) {
    const [list] = await queryRows<{ id: string }>(tx, sql`select id from contact_lists where id = ${wanted} and workspace_id = ${workspaceId}`);
    if (!list) throw new ImportFailure("The list to add the contacts to was deleted");
    return list.id;
  }
  if (!options.newListName) return null;
  // A list of that name that exists already is used: importing the same file twice must not fail.
  const [created] = await queryRows<{ id: string }>(
    tx,
    sql`insert into contact_lists (id, workspace_id, name) values (${newId("lst")}, ${workspaceId}, ${options.newListName})
        on conflict (workspace_id, name) do nothing returning id`,
  );
  if (created) return created.id;
  const [existing] = await queryRows<{ id: string }>(tx, sql`select id from contact_lists where workspace_id = ${workspaceId} and name = ${options.newListName}`);
  return existing!.id;
}

async function registerAttributes(tx: Executor, workspaceId: string, options: StoredOptions): Promise<void> {
  const attributes = options.columns.flatMap((column) => (column.target.type === "attribute" ? [column.target] : []));
  if (attributes.length === 0) return;
  await tx.execute(sql`insert into contact_attributes (workspace_id, key, type)
    values ${sql.join(attributes.map((a) => sql`(${workspaceId}, ${a.key}, ${a.attributeType})`), sql`, `)}
    on conflict (workspace_id, key) do nothing`);
}

/**
 * Contact ids of one merge: a random prefix drawn for the merge and a counter in phone order. New
 * contacts are inserted in phone order, so both the primary key and the (workspace, phone) index
 * grow at one end instead of at random places (random ids made the insert about twice as slow on a
 * million rows), and the membership rows' foreign-key checks read index pages that are cached.
 */
function contactIdPrefix(): string {
  return `ctc_${randomBase62(12)}`;
}

/**
 * Merges the staged rows whose phone `inRange` holds. The range is in the phone columns' own
 * collation on both sides, so a staged phone and its stored contact fall in the same range, and the
 * contacts' (workspace, phone) index reads only the range's contacts.
 */
async function mergeRows(tx: Executor, importId: string, job: MergeJob, inRange: (column: SQL) => SQL): Promise<{ created: number; updated: number; unchanged: number }> {
  const { workspaceId, options, listId, fileName, large } = job;
  const update = options.updateExisting ? sql`true` : sql`false`;
  // A CSV body of POST /contacts/bulk states consent as its JSON form does (the caller's, rule `direct`).
  const change = options.consentChange
    ? { source: options.consentChange.source, detail: sql`${options.consentChange.detail}` }
    : { source: "import" as const, detail: sql`${fileName}` };
  const fresh = newContactConsentSql(sql`v.consent`, change);
  const consentChanges = consentChangeSql(sql`v.consent`, options.consentChange ? "direct" : "import");
  // What makes a stored contact `c` change for its row `v` (nothing else is written: a file imported again changes nothing).
  // Only for a stored contact: without one, a named row would "change" its missing name and a first import would run the update for nothing.
  const changes = sql`((${update} and ((v.name is not null and v.name is distinct from c.name) or not (c.attributes @> v.attributes))) or ${consentChanges})`;

  // One pass over the staged rows (sorted byte-wise: E.164 numbers need no locale rules, and the
  // sort of a million rows takes about a third less): each phone once (its last row), matched once
  // against the stored contacts, with whether the stored contact changes. The steps below read this table, never the
  // staged rows again; its statistics let the planner hash or probe as the counts call for.
  if (large) await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`create temp table import_merge on commit drop as
    select v.phone, v.name, v.attributes, v.consent, c.id as contact_id, (c.id is not null and coalesce(${changes}, false)) as changes
    from (
      select distinct on (phone collate "C") phone, name, coalesce(attributes, '{}'::jsonb) as attributes, consent
      from contact_import_rows where import_id = ${importId} and error is null and ${inRange(sql`phone`)}
      order by phone collate "C", row_number desc
    ) v
    left join contacts c on c.workspace_id = ${workspaceId} and c.phone_number = v.phone and ${inRange(sql`c.phone_number`)}`);
  if (large) await tx.execute(sql`set local enable_nestloop = on`);
  await tx.execute(sql`analyze import_merge`);
  // Steps with nothing to do are skipped: a first import into an empty workspace only inserts, and
  // a file imported again only finds its contacts unchanged and on the list.
  const [plan] = await queryRows<{ distinct_phones: number; fresh: number; changing: number }>(
    tx,
    sql`select count(*)::int as distinct_phones, (count(*) filter (where contact_id is null))::int as fresh,
          (count(*) filter (where changes))::int as changing
        from import_merge`,
  );
  if (!plan) throw new Error("The merge statements returned no row.");

  // New contacts, and their membership. The ids are drawn for this statement, so none of their
  // memberships can exist yet, and the phones were not stored when the merge read the contacts: the
  // statement inserts without a conflict check per row (about 15 % less work, bench/import.ts). A phone
  // another writer stored meanwhile breaks it; it then runs again, leaving such phones to their writer
  // (counted as existing contacts, as when the merge began).
  const insertFresh = (executor: Executor, checked: boolean) => queryRows<{ created: number }>(
    executor,
    sql`with ins as (
        insert into contacts (id, workspace_id, phone_number, name, attributes, opted_out_at, opt_out_method, opt_out_detail, consent_status, consent_source, consent_at)
        select ${contactIdPrefix()} || lpad((row_number() over (order by v.phone))::text, 10, '0'), ${workspaceId}, v.phone, v.name, v.attributes,
               ${fresh.optedOutAt}, ${fresh.method}, ${fresh.detail}, ${fresh.status}, ${fresh.source}, ${fresh.at}
        from import_merge v
        where v.contact_id is null
        order by v.phone
        ${checked ? sql`on conflict (workspace_id, phone_number) do nothing` : sql``}
        returning id
      ),
      joined as (
        insert into contact_list_members (list_id, contact_id)
        select ${listId}, id from ins
        where ${listId}::text is not null
        returning 1
      )
      select (select count(*) from ins)::int as created,
             (select count(*) from joined)::int as joined`,
  );
  const [inserted] = plan.fresh === 0 ? [{ created: 0 }] : await tx
    .transaction((savepoint) => insertFresh(savepoint, false))
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      return insertFresh(tx, true);
    });

  // Stored contacts that change (the condition is checked again against the row as it is now).
  const [updated] = plan.changing === 0 ? [{ updated: 0 }] : await queryRows<{ updated: number }>(
    tx,
    sql`with upd as (
        update contacts c set
          name = case when ${update} and v.name is not null then v.name else c.name end,
          attributes = case when ${update} then c.attributes || v.attributes else c.attributes end,
          ${consentAssignmentsSql(sql`v.consent`, consentChanges, change)},
          updated_at = now()
        from import_merge v
        where v.changes and c.id = v.contact_id and c.workspace_id = ${workspaceId} and ${changes}
        returning c.id
      )
      select count(*)::int as updated from upd`,
  );

  // Stored contacts join the list unless they are members already (one anti-join, not a conflict per contact).
  if (listId && plan.fresh < plan.distinct_phones) {
    await tx.execute(sql`insert into contact_list_members (list_id, contact_id)
      select ${listId}, v.contact_id from import_merge v
      where v.contact_id is not null
        and not exists (select 1 from contact_list_members m where m.list_id = ${listId} and m.contact_id = v.contact_id)
      on conflict do nothing`);
  }

  if (!inserted || !updated) throw new Error("The merge statements returned no row.");
  const existing = plan.distinct_phones - inserted.created;
  return { created: inserted.created, updated: updated.updated, unchanged: existing - updated.updated };
}
