// The merge of a stored import: one transaction of a few set-based statements for the contacts,
// their consent and the list membership. Either every contact of the file is merged and the report
// written, or nothing is (the job is then `failed` with the reason).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { consentAssignmentsSql, consentChangeSql, newContactConsentSql } from "@/lib/contacts/consent";
import { newId, randomBase62 } from "@/lib/crypto/random";
import type { StoredOptions } from "./store";
import { describeError } from "@/lib/logging";

export interface MergeCounts {
  created: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  invalid: number;
}

class ImportFailure extends Error {}

/** From this size on, the merge's joins hash both sides instead of probing the phone index per row. */
const LARGE_IMPORT_ROWS = 20_000;

/**
 * Merges a job whose file is stored (`processing` with `started_at` set). A job in any other
 * state, or one another merge finished meanwhile (the row lock serialises them), is left alone:
 * `null`. Rules:
 * - duplicates inside the file: the last row of a phone wins, the earlier ones count as duplicates;
 * - new phones become contacts; existing ones change only with `updateExisting` and only when the
 *   name or an attribute differs (re-importing a file changes nothing);
 * - consent (lib/contacts/consent.ts, rule `import`): `unsubscribed` unsubscribes (method `import`,
 *   detail the file name) a contact who is not already; `subscribed` subscribes unknown contacts and
 *   those an import unsubscribed; `unknown` lifts only an import's unsubscribe; an empty cell
 *   changes nothing (new contacts: unknown). A CSV body of `POST /contacts/bulk` (`consentChange`)
 *   follows its JSON form instead: the caller's source and detail, rule `direct`;
 * - every valid contact joins the list (already a member: nothing happens).
 */
export async function runImport(db: Executor, workspaceId: string, importId: string): Promise<MergeCounts | null> {
  try {
    return await db.transaction(async (tx) => {
      const [job] = await queryRows<{ status: string; started_at: unknown; options: StoredOptions; list_id: string | null; file_name: string; rows_read: number }>(
        tx,
        sql`select status, started_at, options, list_id, file_name, rows_read from contact_imports
            where id = ${importId} and workspace_id = ${workspaceId} for update`,
      );
      if (!job || job.status !== "processing" || job.started_at === null) return null;
      const options = job.options;
      const listId = await resolveList(tx, workspaceId, options, job.list_id);
      await registerAttributes(tx, workspaceId, options);
      // A background job in its own transaction: a million rows on a busy server outlast the
      // statement timeout requests are held to (its statements took over 120 s at load average 10).
      await tx.execute(sql`set local statement_timeout = 0`);
      // The staged rows arrived after the last statistics, and the planner cannot know how many
      // distinct phones they hold: it joins a large file row by row through the phone index
      // (minutes for a million rows). A large file is joined by hashing instead, with room to sort.
      await tx.execute(sql`analyze contact_import_rows`);
      const large = job.rows_read > LARGE_IMPORT_ROWS;
      if (large) await tx.execute(sql`set local work_mem = '128MB'`);
      const { counts, staged } = await mergeRows(tx, workspaceId, importId, options, listId, job.file_name, large);
      // Every row read was staged, or the upload would have failed: fewer means rows were lost on the way.
      if (staged !== job.rows_read) {
        console.error(`Import ${importId} failed: ${job.rows_read} rows were read but ${staged} were staged.`);
        throw new ImportFailure(`Only ${staged} of the file's ${job.rows_read} rows were stored; nothing was imported. Create the import again.`);
      }
      await tx.execute(sql`update contact_imports set status = 'completed', list_id = ${listId},
          created = ${counts.created}, updated = ${counts.updated}, unchanged = ${counts.unchanged},
          duplicates = ${counts.duplicates}, invalid = ${counts.invalid}, error = null,
          finished_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ${importId}`);
      return counts;
    });
  } catch (error) {
    const reason = error instanceof ImportFailure ? error.message : "The merge failed on the server; nothing was imported. Create the import again.";
    if (!(error instanceof ImportFailure)) console.error(`Import ${importId} failed: ${describeError(error)}`);
    await db.execute(sql`update contact_imports set status = 'failed', error = ${reason}, finished_at = now(), updated_at = now()
      where id = ${importId} and status = 'processing'`);
    return null;
  }
}

async function resolveList(tx: Executor, workspaceId: string, options: StoredOptions, current: string | null): Promise<string | null> {
  const wanted = options.listId ?? current;
  if (wanted) {
    const [list] = await queryRows<{ id: string }>(tx, sql`select id from contact_lists where id = ${wanted} and workspace_id = ${workspaceId}`);
    if (!list) throw new ImportFailure("The list to add the contacts to was deleted; nothing was imported.");
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

async function mergeRows(tx: Executor, workspaceId: string, importId: string, options: StoredOptions, listId: string | null, fileName: string, large: boolean): Promise<{ counts: MergeCounts; staged: number }> {
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

  const [staged] = await queryRows<{ valid: number; invalid: number }>(
    tx,
    sql`select (count(*) filter (where error is null))::int as valid, (count(*) filter (where error is not null))::int as invalid
        from contact_import_rows where import_id = ${importId}`,
  );
  // One pass over the staged rows (sorted byte-wise: E.164 numbers need no locale rules, and the
  // sort of a million rows takes about a third less): each phone once (its last row), matched once
  // against the stored contacts, with whether the stored contact changes. The steps below read this table, never the
  // staged rows again; its statistics let the planner hash or probe as the counts call for.
  if (large) await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`create temp table import_merge on commit drop as
    select v.phone, v.name, v.attributes, v.consent, c.id as contact_id, (c.id is not null and coalesce(${changes}, false)) as changes
    from (
      select distinct on (phone collate "C") phone, name, coalesce(attributes, '{}'::jsonb) as attributes, consent
      from contact_import_rows where import_id = ${importId} and error is null
      order by phone collate "C", row_number desc
    ) v
    left join contacts c on c.workspace_id = ${workspaceId} and c.phone_number = v.phone`);
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
  if (!staged || !plan) throw new Error("The merge statements returned no row.");

  // New contacts, and their membership. A phone stored meanwhile by another writer is left to it
  // (counted as an existing contact, as when the merge began).
  const [inserted] = plan.fresh === 0 ? [{ created: 0 }] : await queryRows<{ created: number }>(
    tx,
    sql`with ins as (
        insert into contacts (id, workspace_id, phone_number, name, attributes, opted_out_at, opt_out_method, opt_out_detail, consent_status, consent_source, consent_at)
        select ${contactIdPrefix()} || lpad((row_number() over (order by v.phone))::text, 10, '0'), ${workspaceId}, v.phone, v.name, v.attributes,
               ${fresh.optedOutAt}, ${fresh.method}, ${fresh.detail}, ${fresh.status}, ${fresh.source}, ${fresh.at}
        from import_merge v
        where v.contact_id is null
        order by v.phone
        on conflict (workspace_id, phone_number) do nothing
        returning id
      ),
      joined as (
        insert into contact_list_members (list_id, contact_id)
        select ${listId}, id from ins
        where ${listId}::text is not null
        on conflict do nothing
        returning 1
      )
      select (select count(*) from ins)::int as created,
             (select count(*) from joined)::int as joined`,
  );

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
  return {
    counts: {
      created: inserted.created,
      updated: updated.updated,
      unchanged: existing - updated.updated,
      duplicates: staged.valid - plan.distinct_phones,
      invalid: staged.invalid,
    },
    staged: staged.valid + staged.invalid,
  };
}
