// `POST /contacts/bulk` with a JSON array: up to 1,000 upserts keyed by phone, one statement for
// the contacts (plus one for consent when any item sends `consent` or `optedOut`), all or nothing.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { attributeTypesOf, coerceAttributeValue } from "@/lib/contacts/attributes";
import { consentAssignmentsSql, consentChangeSql } from "@/lib/contacts/consent";
import { CONTACT_UPSERT_CONFLICT, consentChangeOf } from "@/lib/contacts/service";
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
  const records = JSON.stringify(items.map((item) => ({ phone: item.phone, name: item.name ?? null, attributes: item.attributes ?? {}, opted_out: item.optedOut ?? null, consent: item.consent ?? null })));
  const change = consentChangeOf(actor);
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string; phone: string; created: boolean }>(
      tx,
      sql`insert into contacts as c (id, workspace_id, phone_number, name, attributes)
          select 'ctc_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, r.phone, r.name, r.attributes
          from jsonb_to_recordset(${records}::jsonb) as r(phone text, name text, attributes jsonb)
          ${CONTACT_UPSERT_CONFLICT}
          returning c.id, c.phone_number as phone, (xmax = 0) as created`,
    );
    if (items.some((item) => item.optedOut !== undefined || item.consent !== undefined)) {
      // The one-contact rules: `consent` as sent; the deprecated `optedOut` true unsubscribes, false lifts an unsubscribe.
      const status = sql`coalesce(r.consent, case when r.opted_out then 'unsubscribed' when r.opted_out = false and c.consent_status = 'unsubscribed' then 'subscribed' end)`;
      const applies = consentChangeSql(status, "direct");
      await tx.execute(sql`update contacts c set ${consentAssignmentsSql(status, applies, { source: change.source, detail: sql`${change.detail}` })}, updated_at = now()
        from jsonb_to_recordset(${records}::jsonb) as r(phone text, opted_out boolean, consent text)
        where c.workspace_id = ${workspaceId} and c.phone_number = r.phone and ${applies}`);
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
