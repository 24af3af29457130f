// Consent: the one module that writes a contact's consent (`consent_status`, `consent_source`,
// `consent_at`, and the opt-out record `opted_out_at` / `opt_out_method` / `opt_out_detail` that
// marks `unsubscribed`; a database check keeps the two in step).
//
// - `setContactConsent`: one contact, by hand or by the API, audited (`contact.consent_changed`).
// - `consentChangeSql`: the same rule as SQL over a contact row `c`, for the set-based writers
//   (CSV import merge, `POST /contacts/bulk`) that apply a status per row.
// - Keyword replies (STOP / START) and the "Stop promotions" button: lib/contacts/opt-out.ts, whose
//   statements write the columns through `consentColumnsSql`.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { contacts, consentStatuses, type ConsentSource, type ConsentStatus, type OptOutMethod } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { notFound } from "@/lib/http/errors";

export { consentStatuses, consentSources, type ConsentSource, type ConsentStatus } from "@/db/schema";

export interface ConsentView {
  status: ConsentStatus;
  /** How the status was set: `import`, `form`, `api`, `keyword`, `button`, `manual`; null when never set. */
  source: ConsentSource | null;
  /** When the status was set; null when never set. */
  updatedAt: string | null;
}

export interface ConsentChange {
  source: ConsentSource;
  /** Who or what: the user's email, the API key's name, the import's file name, the keyword. */
  detail: string | null;
}

/** The opt-out method recorded beside an `unsubscribed` status (the older, coarser column). */
export function optOutMethodOf(source: ConsentSource): OptOutMethod {
  switch (source) {
    case "manual":
    case "import":
    case "api":
    case "keyword":
      return source;
    case "button":
      return "keyword";
    case "form":
      return "api";
  }
}

export function isConsentStatus(value: unknown): value is ConsentStatus {
  return typeof value === "string" && (consentStatuses as readonly string[]).includes(value);
}

/**
 * `set` assignments that give a contact row `c` the status `status` (an SQL text expression) when
 * `applies` holds, and keep it as it is otherwise. Unsubscribing records the opt-out (method and
 * detail); any other status clears it.
 */
export function consentAssignmentsSql(status: SQL, applies: SQL, change: { source: ConsentSource; detail: SQL }): SQL {
  const method = optOutMethodOf(change.source);
  return sql`consent_status = case when ${applies} then ${status} else c.consent_status end,
    consent_source = case when ${applies} then ${change.source}::text else c.consent_source end,
    consent_at = case when ${applies} then now() else c.consent_at end,
    opted_out_at = case when ${applies} then (case when ${status} = 'unsubscribed' then now() end) else c.opted_out_at end,
    opt_out_method = case when ${applies} then (case when ${status} = 'unsubscribed' then ${method}::text end) else c.opt_out_method end,
    opt_out_detail = case when ${applies} then (case when ${status} = 'unsubscribed' then ${change.detail}::text end) else c.opt_out_detail end`;
}

/**
 * When a status stated for a contact row `c` changes it.
 * - `direct` (by hand, the API): any different status; null changes nothing.
 * - `import`: a file may unsubscribe anyone not unsubscribed, but it lifts only an unsubscribe an
 *   import made (never a STOP reply, a user's or the API's): `subscribed` applies to unknown
 *   contacts and to those an import unsubscribed, `unknown` only to those an import unsubscribed.
 */
export function consentChangeSql(status: SQL, rule: "direct" | "import"): SQL {
  if (rule === "direct") return sql`(${status} is not null and ${status} <> c.consent_status)`;
  return sql`((${status} = 'unsubscribed' and c.consent_status <> 'unsubscribed')
    or (${status} = 'subscribed' and (c.consent_status = 'unknown' or (c.consent_status = 'unsubscribed' and c.opt_out_method = 'import')))
    or (${status} = 'unknown' and c.consent_status = 'unsubscribed' and c.opt_out_method = 'import'))`;
}

/** Column values of a new contact whose consent is `status` (SQL text, null: unknown): for inserts. */
export function newContactConsentSql(status: SQL, change: { source: ConsentSource; detail: SQL }): { status: SQL; source: SQL; at: SQL; optedOutAt: SQL; method: SQL; detail: SQL } {
  const stated = sql`(${status} is not null and ${status} <> 'unknown')`;
  const out = sql`(${status} = 'unsubscribed')`;
  return {
    status: sql`coalesce(${status}, 'unknown')`,
    source: sql`case when ${stated} then ${change.source}::text end`,
    at: sql`case when ${stated} then now() end`,
    optedOutAt: sql`case when ${out} then now() end`,
    method: sql`case when ${out} then ${optOutMethodOf(change.source)}::text end`,
    detail: sql`case when ${out} then ${change.detail}::text end`,
  };
}

export function consentViewOf(row: { consentStatus: ConsentStatus; consentSource: ConsentSource | null; consentAt: Date | null }): ConsentView {
  return { status: row.consentStatus, source: row.consentSource, updatedAt: row.consentAt?.toISOString() ?? null };
}

type ContactRow = typeof contacts.$inferSelect;

/**
 * Sets one contact's consent. The same status again changes nothing (an unsubscribe keeps its
 * first record: when, how, by whom). A change is audited with the previous status when an actor
 * is given. Returns the row and whether it changed.
 */
export async function setContactConsent(
  db: Executor,
  workspaceId: string,
  contactId: string,
  status: ConsentStatus,
  change: ConsentChange,
  actor?: AuditActor,
): Promise<{ row: ContactRow; changed: boolean; previous: ConsentStatus }> {
  const value = sql`${status}::text`;
  const applies = consentChangeSql(value, "direct");
  const [result] = await queryRows<{ id: string; previous: ConsentStatus; changed: boolean }>(
    db,
    sql`with old as (
        select id, consent_status from contacts where workspace_id = ${workspaceId} and id = ${contactId} for update
      ),
      up as (
        update contacts c set ${consentAssignmentsSql(value, applies, { source: change.source, detail: sql`${change.detail}` })}, updated_at = now()
        from old where c.id = old.id and ${applies}
        returning c.id
      )
      select old.id, old.consent_status as previous, exists (select 1 from up) as changed from old`,
  );
  if (!result) throw notFound("No contact with this id or phone number exists in your workspace.");
  const changed = Boolean(result.changed);
  if (changed && actor) {
    await recordAudit(db, {
      workspaceId,
      actor,
      action: "contact.consent_changed",
      targetType: "contact",
      targetId: contactId,
      metadata: { from: result.previous, to: status, source: change.source, detail: change.detail },
    });
  }
  const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId))).limit(1);
  return { row: row!, changed, previous: result.previous };
}
