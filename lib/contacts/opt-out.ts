// Consent: opting a contact out (by hand, by import, by the API, by a keyword reply) and back in.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, type OptOutMethod } from "@/db/schema";
import { notFound } from "@/lib/http/errors";

export interface OptOutSource {
  method: OptOutMethod;
  /** Who or what: the user's email, the API key's name, the import's file name, the keyword. */
  detail: string | null;
}

type ContactRow = typeof contacts.$inferSelect;

const missing = () => notFound("No contact with this id or phone number exists in your workspace.");

/**
 * Opts the contact out. A contact already opted out keeps its first record (when, how, by whom):
 * repeating the request changes nothing.
 */
export async function optOutContact(db: Executor, workspaceId: string, contactId: string, source: OptOutSource): Promise<ContactRow> {
  const [row] = await db
    .update(contacts)
    .set({
      optedOutAt: sql`coalesce(${contacts.optedOutAt}, now())`,
      optOutMethod: sql`case when ${contacts.optedOutAt} is null then ${source.method} else ${contacts.optOutMethod} end`,
      optOutDetail: sql`case when ${contacts.optedOutAt} is null then ${source.detail}::text else ${contacts.optOutDetail} end`,
      updatedAt: sql`case when ${contacts.optedOutAt} is null then now() else ${contacts.updatedAt} end`,
    })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning();
  if (!row) throw missing();
  return row;
}

/** Opts the contact back in: clears when, how and by whom. */
export async function optInContact(db: Executor, workspaceId: string, contactId: string): Promise<ContactRow> {
  const [row] = await db
    .update(contacts)
    .set({
      optedOutAt: null,
      optOutMethod: null,
      optOutDetail: null,
      updatedAt: sql`case when ${contacts.optedOutAt} is null then ${contacts.updatedAt} else now() end`,
    })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning();
  if (!row) throw missing();
  return row;
}
