// PLACEHOLDER (branch w-api): records the event and starts or ends no run. The runner's
// `ingestEvent` (branch w-runner) replaces this file whole at merge; the signature is the contract
// lib/journeys/events-http.ts is written against.
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, journeyEvents } from "@/db/schema";
import { newId } from "@/lib/crypto/random";

export interface IngestedEvent {
  id: string;
  name: string;
  contactId: string | null;
  runsStarted: number;
  runsEnded: number;
  createdAt: Date;
}

export async function ingestEvent(
  db: Executor,
  input: { workspaceId: string; name: string; phone?: string; contactId?: string; properties: Record<string, unknown> },
): Promise<IngestedEvent> {
  const where = input.contactId ? eq(contacts.id, input.contactId) : eq(contacts.phoneNumber, input.phone ?? "");
  const [contact] = await db
    .select({ id: contacts.id, phone: contacts.phoneNumber })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, input.workspaceId), where))
    .limit(1);
  const [row] = await db
    .insert(journeyEvents)
    .values({ id: newId("evn"), workspaceId: input.workspaceId, name: input.name, contactId: contact?.id ?? null, phoneNumber: contact?.phone ?? input.phone ?? null, properties: input.properties })
    .returning();
  return { id: row!.id, name: row!.name, contactId: row!.contactId, runsStarted: 0, runsEnded: 0, createdAt: row!.createdAt };
}
