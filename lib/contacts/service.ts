// Contacts of a workspace, keyed by E.164 phone number.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { contacts } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { notFound, validationFailed } from "@/lib/http/errors";
import { contactPhoneSchema, upsertContactSchema, type UpsertContactInput } from "./schemas";

export interface ContactView {
  id: string;
  object: "contact";
  phone: string;
  name: string | null;
  attributes: Record<string, unknown>;
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

const missing = () => notFound("No contact with this phone number exists in the API key's workspace.");

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

function toView(row: typeof contacts.$inferSelect): ContactView {
  return {
    id: row.id,
    object: "contact",
    phone: row.phoneNumber,
    name: row.name,
    attributes: row.attributes ?? {},
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getContactByPhone(db: Executor, workspaceId: string, phone: string): Promise<ContactView> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.phoneNumber, phone)))
    .limit(1);
  if (!row) throw missing();
  return toView(row);
}

/** Creates or updates the contact with this phone; `created` tells which happened. */
export async function upsertContact(
  db: Executor,
  workspaceId: string,
  phone: string,
  input: UpsertContactInput,
): Promise<{ contact: ContactView; created: boolean }> {
  const values = upsertContactSchema.parse(input);
  const [row] = await queryRows<{ id: string; created: boolean }>(
    db,
    sql`insert into contacts as c (id, workspace_id, phone_number, name, attributes)
      values (${newId("ctc")}, ${workspaceId}, ${phone}, ${values.name ?? null}, ${JSON.stringify(values.attributes ?? {})}::jsonb)
      ${CONTACT_UPSERT_CONFLICT}
      returning c.id, (xmax = 0) as created`,
  );
  if (!row) throw new Error("Upserting the contact returned no row.");
  return { contact: await getContactByPhone(db, workspaceId, phone), created: Boolean(row.created) };
}
