// `POST /contacts/bulk` with a JSON array: up to 1,000 upserts keyed by phone, one statement for
// the contacts (plus one for consent when any item sends `optedOut`), all or nothing.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { attributeTypesOf, coerceAttributeValue } from "@/lib/contacts/attributes";
import { CONTACT_UPSERT_CONFLICT, optOutSourceOf } from "@/lib/contacts/service";
import { validationFailed, type FieldError } from "@/lib/http/errors";
import type { Actor } from "@/lib/workspaces";
import type { BulkContactsInput, BulkResult } from "./schemas";

/** Duplicate phones and attribute values that do not fit their declared types, with item paths (`[3].phone`). */
async function itemErrors(db: Executor, workspaceId: string, items: BulkContactsInput): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const firstIndex = new Map<string, number>();
  items.forEach((item, i) => {
    const first = firstIndex.get(item.phone);
    if (first === undefined) firstIndex.set(item.phone, i);
    else errors.push({ path: `[${i}].phone`, code: "duplicate_phone", message: `The same phone number as [${first}]; send each contact once.` });
  });
  const keys = [...new Set(items.flatMap((item) => Object.keys(item.attributes ?? {})))];
  const types = await attributeTypesOf(db, workspaceId, keys);
  items.forEach((item, i) => {
    for (const [key, value] of Object.entries(item.attributes ?? {})) {
      const type = types.get(key);
      if (!type) continue;
      const result = coerceAttributeValue(type, value);
      if (!result.ok) errors.push({ path: `[${i}].attributes.${key}`, code: "invalid_type", message: `${key} is a ${type} attribute. ${result.reason}` });
    }
  });
  return errors;
}

export async function bulkUpsertContacts(db: Executor, workspaceId: string, items: BulkContactsInput, actor: Actor): Promise<BulkResult> {
  const errors = await itemErrors(db, workspaceId, items);
  if (errors.length > 0) throw validationFailed(errors);
  const records = JSON.stringify(items.map((item) => ({ phone: item.phone, name: item.name ?? null, attributes: item.attributes ?? {}, opted_out: item.optedOut ?? null })));
  const source = optOutSourceOf(actor);
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string; phone: string; created: boolean }>(
      tx,
      sql`insert into contacts as c (id, workspace_id, phone_number, name, attributes)
          select 'ctc_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, r.phone, r.name, r.attributes
          from jsonb_to_recordset(${records}::jsonb) as r(phone text, name text, attributes jsonb)
          ${CONTACT_UPSERT_CONFLICT}
          returning c.id, c.phone_number as phone, (xmax = 0) as created`,
    );
    if (items.some((item) => item.optedOut !== undefined)) {
      // Opting out keeps a contact's first opt-out record; opting in clears it (the same rules as one contact).
      await tx.execute(sql`update contacts c set
          opted_out_at = case when r.opted_out then coalesce(c.opted_out_at, now()) else null end,
          opt_out_method = case when r.opted_out then coalesce(c.opt_out_method, ${source.method}) else null end,
          opt_out_detail = case when r.opted_out then case when c.opted_out_at is null then ${source.detail} else c.opt_out_detail end else null end,
          updated_at = now()
        from jsonb_to_recordset(${records}::jsonb) as r(phone text, opted_out boolean)
        where c.workspace_id = ${workspaceId} and c.phone_number = r.phone and r.opted_out is not null
          and (r.opted_out) is distinct from (c.opted_out_at is not null)`);
    }
    const byPhone = new Map(rows.map((row) => [row.phone, row]));
    const data = items.map((item) => {
      const row = byPhone.get(item.phone)!;
      return { id: row.id, phone: row.phone, created: Boolean(row.created) };
    });
    const created = data.filter((item) => item.created).length;
    return { object: "bulk_result" as const, created, updated: data.length - created, data };
  });
}
