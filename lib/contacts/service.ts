// Contacts of a workspace: addressed by id (`ctc_…`) or by E.164 phone number.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { contacts, type ConsentSource, type ConsentStatus, type OptOutMethod } from "@/db/schema";
import type { AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { toLogStatus, type LogStatus } from "@/lib/statuses/messages";
import type { Actor } from "@/lib/workspaces";
import { typedAttributeErrors } from "./attributes";
import { NAME_ATTRIBUTE } from "./identifiers";
import { consentViewOf, setContactConsent, type ConsentChange, type ConsentView } from "./consent";
import { c, lastMessageStatusSql } from "./sql";
import {
  contactPhoneSchema,
  upsertContactSchema,
  type CreateContactInput,
  type PatchContactInput,
  type UpsertContactInput,
} from "./schemas";

export interface ContactConsent extends ConsentView {
  /** Deprecated: `status === "unsubscribed"`. */
  optedOut: boolean;
  optedOutAt: string | null;
  method: OptOutMethod | null;
  /** Who or what: the user's email, the API key's name, the import's file name, the keyword. */
  detail: string | null;
}

export interface ContactView {
  id: string;
  object: "contact";
  phone: string;
  name: string | null;
  attributes: Record<string, unknown>;
  consent: ContactConsent;
  lists: { id: string; name: string }[];
  /** The status of the newest message to this contact, across campaigns. */
  lastMessageStatus: LogStatus | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The one merge rule for an existing contact (`insert into contacts as c … `): a new name replaces
 * the stored one only when given, attributes are merged key by key. The trigger's upsert uses it too.
 */
export const CONTACT_UPSERT_CONFLICT = sql`on conflict (workspace_id, phone_number) do update set
  name = coalesce(excluded.name, c.name),
  attributes = c.attributes || excluded.attributes,
  updated_at = now()`;

/**
 * The upsert of contacts whose fields follow update rules (the trigger's mapping): the attributes
 * named in `fillWhenEmpty` (`name` included) only fill a missing or empty stored value, the others
 * replace it; a row that changes nothing (a skipped request sends no values) keeps its
 * `updated_at`. Still one clause of the one insert statement: no extra round trip.
 */
export function contactUpsertConflictWithRules(fillWhenEmpty: readonly string[]): SQL {
  const keys = fillWhenEmpty.filter((key) => key !== NAME_ATTRIBUTE);
  const name = fillWhenEmpty.includes(NAME_ATTRIBUTE) ? sql`(case when coalesce(btrim(c.name), '') = '' then coalesce(excluded.name, c.name) else c.name end)` : sql`coalesce(excluded.name, c.name)`;
  const attributes =
    keys.length === 0
      ? sql`(c.attributes || excluded.attributes)`
      : sql`(c.attributes || (excluded.attributes - array(select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))) || coalesce((
          select jsonb_object_agg(e.key, e.value) from jsonb_each(excluded.attributes) e
          where e.key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)) and coalesce(btrim(c.attributes ->> e.key), '') = ''
        ), '{}'::jsonb))`;
  return sql`on conflict (workspace_id, phone_number) do update set
  name = ${name},
  attributes = ${attributes},
  updated_at = case when ${name} is not distinct from c.name and ${attributes} = c.attributes then c.updated_at else now() end`;
}

export const CONTACT_ID = /^ctc_[A-Za-z0-9]{1,64}$/;
const missing = () => notFound("No contact with this id or phone number exists in your workspace.");

/** A phone from a URL segment (`+14155552671` or `%2B14155552671`), validated as E.164. */
export function parseContactPhone(segment: string): string {
  let phone = segment;
  try {
    phone = decodeURIComponent(segment);
  } catch {
    // Not percent-encoded text; validate it as it is.
  }
  const parsed = contactPhoneSchema.safeParse(phone.trim());
  if (!parsed.success) {
    throw validationFailed([{ path: "phone", code: "invalid_phone", message: parsed.error.issues[0]?.message ?? "Not a valid phone number." }]);
  }
  return parsed.data;
}

/** `ctc_…` is an id; anything else must be an E.164 phone number (422 otherwise). */
function identify(idOrPhone: string): SQL {
  const decoded = safeDecode(idOrPhone).trim();
  if (decoded.startsWith("ctc_")) return CONTACT_ID.test(decoded) ? eq(c.id, decoded) : sql`false`;
  return eq(c.phoneNumber, parseContactPhone(idOrPhone));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** How the acting user (`manual`) or key (`api`) is recorded when they change a contact's consent. */
export function consentChangeOf(actor: Actor): ConsentChange & { source: Extract<ConsentSource, "manual" | "api"> } {
  return actor.type === "user" ? { source: "manual", detail: actor.email } : { source: "api", detail: actor.name };
}

/** The audit actor of a user or key when the request is not at hand. */
function auditActorOf(actor: Actor): AuditActor {
  return { userId: actor.type === "user" ? actor.id : null, apiKeyId: actor.type === "api_key" ? actor.id : null, ip: null, userAgent: null };
}

// Drizzle leaves columns unqualified in the select list of a one-table query, which would bind to
// the subqueries' own tables: name the outer contact explicitly.
const OUTER_ID = sql.raw(`"c"."id"`);

export const contactViewColumns = {
  contact: c,
  lists: sql<string>`(select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name) order by l.name, l.id), '[]')::text
    from contact_list_members lm2 join contact_lists l on l.id = lm2.list_id where lm2.contact_id = ${OUTER_ID})`,
  lastStatus: lastMessageStatusSql(OUTER_ID),
  position: cursorTimestamp(c.createdAt),
};

type ViewRow = { contact: typeof contacts.$inferSelect; lists: string; lastStatus: string | null; position: string };

export function toContactView({ contact, lists, lastStatus }: ViewRow): ContactView {
  return {
    id: contact.id,
    object: "contact",
    phone: contact.phoneNumber,
    name: contact.name,
    attributes: contact.attributes ?? {},
    consent: {
      ...consentViewOf(contact),
      optedOut: contact.optedOutAt !== null,
      optedOutAt: contact.optedOutAt?.toISOString() ?? null,
      method: contact.optOutMethod,
      detail: contact.optOutDetail,
    },
    lists: JSON.parse(lists) as { id: string; name: string }[],
    lastMessageStatus: lastStatus ? toLogStatus(lastStatus as Parameters<typeof toLogStatus>[0]) : null,
    createdAt: contact.createdAt.toISOString(),
    updatedAt: contact.updatedAt.toISOString(),
  };
}

async function findContact(db: Executor, workspaceId: string, condition: SQL): Promise<ContactView | null> {
  const [row] = await db
    .select(contactViewColumns)
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), condition))
    .limit(1);
  return row ? toContactView(row) : null;
}

export async function getContact(db: Executor, workspaceId: string, idOrPhone: string): Promise<ContactView> {
  const contact = await findContact(db, workspaceId, identify(idOrPhone));
  if (!contact) throw missing();
  return contact;
}

export async function getContactByPhone(db: Executor, workspaceId: string, phone: string): Promise<ContactView> {
  const contact = await findContact(db, workspaceId, eq(c.phoneNumber, phone));
  if (!contact) throw missing();
  return contact;
}

/** The contact's id, or 404. */
export async function resolveContactId(db: Executor, workspaceId: string, idOrPhone: string): Promise<string> {
  const [row] = await db
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), identify(idOrPhone)))
    .limit(1);
  if (!row) throw missing();
  return row.id;
}

async function assertTypedAttributes(db: Executor, workspaceId: string, attributes: Record<string, unknown> | undefined): Promise<void> {
  if (!attributes) return;
  const errors = await typedAttributeErrors(db, workspaceId, attributes);
  if (errors.length > 0) throw validationFailed(errors);
}

async function upsertRow(db: Executor, workspaceId: string, phone: string, values: UpsertContactInput): Promise<{ id: string; created: boolean }> {
  const [row] = await queryRows<{ id: string; created: boolean }>(
    db,
    sql`insert into contacts as c (id, workspace_id, phone_number, name, attributes)
      values (${newId("ctc")}, ${workspaceId}, ${phone}, ${values.name ?? null}, ${JSON.stringify(values.attributes ?? {})}::jsonb)
      ${CONTACT_UPSERT_CONFLICT}
      returning c.id, (xmax = 0) as created`,
  );
  if (!row) throw new Error("Upserting the contact returned no row.");
  return { id: row.id, created: Boolean(row.created) };
}

/** Creates or updates the contact with this phone; `created` tells which happened. */
export async function upsertContact(
  db: Executor,
  workspaceId: string,
  phone: string,
  input: UpsertContactInput,
): Promise<{ contact: ContactView; created: boolean }> {
  const values = upsertContactSchema.parse(input);
  await assertTypedAttributes(db, workspaceId, values.attributes);
  const { created } = await upsertRow(db, workspaceId, phone, values);
  return { contact: await getContactByPhone(db, workspaceId, phone), created };
}

/**
 * The consent a create or update asks for: `consent` as it is; the deprecated `optedOut` true is
 * `unsubscribed`, false lifts an unsubscribe (`subscribed`, as the opt-in route) and otherwise
 * changes nothing.
 */
async function requestedConsent(db: Executor, contactId: string, input: { consent?: ConsentStatus; optedOut?: boolean }): Promise<ConsentStatus | null> {
  if (input.consent) return input.consent;
  if (input.optedOut === true) return "unsubscribed";
  if (input.optedOut !== false) return null;
  const [row] = await db.select({ status: contacts.consentStatus }).from(contacts).where(eq(contacts.id, contactId)).limit(1);
  return row?.status === "unsubscribed" ? "subscribed" : null;
}

/** `POST /contacts`: the upsert by the phone in the body, with consent when `consent` (or `optedOut`) is sent. */
export async function createOrUpdateContact(
  db: Executor,
  workspaceId: string,
  input: CreateContactInput,
  actor: Actor,
  auditActor: AuditActor = auditActorOf(actor),
): Promise<{ contact: ContactView; created: boolean }> {
  await assertTypedAttributes(db, workspaceId, input.attributes);
  const { id, created } = await db.transaction(async (tx) => {
    const row = await upsertRow(tx, workspaceId, input.phone, input);
    if (!row.created && input.ifExists === "error") throw conflict(`A contact with the phone number ${input.phone} already exists.`, "contact_exists");
    const status = await requestedConsent(tx, row.id, input);
    if (status) await setContactConsent(tx, workspaceId, row.id, status, consentChangeOf(actor), auditActor);
    return row;
  });
  return { contact: await getContact(db, workspaceId, id), created };
}

/** Name (null clears it), attributes (merged; a null value removes the key) and consent. */
export async function updateContact(db: Executor, workspaceId: string, idOrPhone: string, input: PatchContactInput, actor?: Actor, auditActor?: AuditActor): Promise<ContactView> {
  const id = await resolveContactId(db, workspaceId, idOrPhone);
  if (input.consent && !actor) throw new Error("Changing consent needs the acting user or key.");
  const entries = Object.entries(input.attributes ?? {});
  await assertTypedAttributes(db, workspaceId, input.attributes);
  const set = Object.fromEntries(entries.filter(([, value]) => value !== null));
  const removed = entries.filter(([, value]) => value === null).map(([key]) => key);
  const removal = removed.length > 0 ? sql` - array[${sql.join(removed.map((key) => sql`${key}`), sql`, `)}]::text[]` : sql``;
  await db.transaction(async (tx) => {
    await tx
      .update(contacts)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        attributes: sql`(${contacts.attributes} || ${JSON.stringify(set)}::jsonb)${removal}`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id)));
    if (input.consent && actor) await setContactConsent(tx, workspaceId, id, input.consent, consentChangeOf(actor), auditActor ?? auditActorOf(actor));
  });
  return getContact(db, workspaceId, id);
}

/** Deletes the contact and its memberships; its messages stay in the logs, without the link. */
export async function deleteContact(db: Executor, workspaceId: string, idOrPhone: string): Promise<void> {
  const id = await resolveContactId(db, workspaceId, idOrPhone);
  await db.delete(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id)));
}

/** `POST …/opt-out` (unsubscribed) and `POST …/opt-in` (subscribed), as the acting user or key, audited. */
export async function optContact(db: Executor, workspaceId: string, idOrPhone: string, optedOut: boolean, actor: Actor, auditActor?: AuditActor): Promise<ContactView> {
  const id = await resolveContactId(db, workspaceId, idOrPhone);
  await setContactConsent(db, workspaceId, id, optedOut ? "unsubscribed" : "subscribed", consentChangeOf(actor), auditActor ?? auditActorOf(actor));
  return getContact(db, workspaceId, id);
}

