// Events sent to the API (`POST /api/v1/events`): always recorded; for a known contact, in one
// transaction, the runs that exit on the event end, the runs waiting for it wake, the runs whose
// journey's goal it is convert, and journeys that start on it enter a run (their re-entry rule applies).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { parsePhone } from "@/lib/contacts/phone";
import { newId } from "@/lib/crypto/random";
import { validationFailed } from "@/lib/http/errors";
import type { Journey } from "@/lib/campaigns/journey";
import { contactEventCtes } from "./contact-events";
import { enterRuns, lockEntries, refusesReentry } from "./enter";
import { loadJourneyVersion } from "./versions";

export interface IngestEventInput {
  workspaceId: string;
  name: string;
  phone?: string;
  contactId?: string;
  properties: Record<string, unknown>;
}

export interface IngestedEvent {
  id: string;
  name: string;
  contactId: string | null;
  runsStarted: number;
  runsEnded: number;
  createdAt: string;
}

export const eventToken = (name: string) => `event:${name}`;

async function findContact(db: Executor, input: IngestEventInput, phone: string | null): Promise<{ id: string; phone: string } | null> {
  if (!input.contactId && !phone) return null;
  const [row] = await queryRows<{ id: string; phone: string }>(
    db,
    sql`select id, phone_number as phone from contacts where workspace_id = ${input.workspaceId}
      and ${input.contactId ? sql`id = ${input.contactId}` : sql`phone_number = ${phone}`}`,
  );
  return row ?? null;
}

/** Ends, wakes and converts the contact's runs; returns how many ended. */
async function applyToRuns(tx: Executor, workspaceId: string, contactId: string, name: string): Promise<number> {
  const token = eventToken(name);
  // Runs the runner holds are waited for here, so the next statement sees what their step queued.
  await tx.execute(sql`select id from journey_runs where contact_id = ${contactId} and status in ('active', 'waiting') and ${token} = any(exit_tokens) order by id for update`);
  const [row] = await queryRows<{ ended: number }>(
    tx,
    sql`with ${contactEventCtes({ workspaceId, token, contactIds: sql`select ${contactId}::text`, reason: `The event "${name}" happened.` })}
      select (select count(*) from ev_exited)::int as ended`,
  );
  return Number(row?.ended ?? 0);
}

interface EntryJourney {
  campaignId: string;
  version: number;
  journey: Journey;
}

/** The active journeys that start on this event, by campaign id. */
async function journeysStartingOn(tx: Executor, input: IngestEventInput): Promise<EntryJourney[]> {
  const campaigns = await queryRows<{ id: string; journey_version: number }>(
    tx,
    sql`select id, journey_version from campaigns
      where workspace_id = ${input.workspaceId} and kind = 'trigger' and status = 'active' and journey_version > 0
        and journey -> 'entryEvents' @> ${JSON.stringify([input.name])}::jsonb
      order by id`,
  );
  const journeys: EntryJourney[] = [];
  for (const campaign of campaigns) {
    const journey = await loadJourneyVersion(tx, campaign.id, Number(campaign.journey_version));
    if (journey?.entryEvents.includes(input.name)) journeys.push({ campaignId: campaign.id, version: Number(campaign.journey_version), journey });
  }
  return journeys;
}

/** Enters the contact into the journeys that start on this event. Returns the runs started. */
async function startRuns(tx: Executor, input: IngestEventInput, contact: { id: string; phone: string }, journeys: EntryJourney[]): Promise<number> {
  let started = 0;
  for (const { campaignId, version, journey } of journeys) {
    const id = newId("run");
    const result = await enterRuns(tx, {
      workspaceId: input.workspaceId,
      campaignId,
      version,
      journey,
      entry: "event",
      // ingestEvent took the entry locks before it locked the contact's runs.
      entriesLocked: true,
      contacts: [{ id: contact.id, phone: contact.phone, name: null, attributes: {} }],
      entries: [{ id, phone: contact.phone, context: { properties: input.properties }, answer: { id }, enter: true }],
    });
    started += result.entered.length;
  }
  return started;
}

/**
 * Records an event and applies it to the contact's runs (see the file's comment). An unknown contact:
 * recorded, nothing else. A phone that is not a phone number is a 422.
 */
export async function ingestEvent(db: Executor, input: IngestEventInput): Promise<IngestedEvent> {
  let phone: string | null = null;
  if (input.phone !== undefined) {
    const parsed = parsePhone(input.phone);
    if (!parsed.ok) throw validationFailed([{ path: "phone", code: "invalid_phone", message: `Not a phone number: ${parsed.reason}.` }]);
    phone = parsed.phone;
  }
  return db.transaction(async (tx) => {
    const contact = await findContact(tx, input, phone);
    const journeys = contact ? await journeysStartingOn(tx, input) : [];
    // Entry locks before the runs' row locks, in the order a trigger takes them (see `lockEntries`).
    for (const { campaignId, journey } of journeys) if (refusesReentry(journey)) await lockEntries(tx, campaignId, [contact!.phone]);
    const runsEnded = contact ? await applyToRuns(tx, input.workspaceId, contact.id, input.name) : 0;
    const runsStarted = contact ? await startRuns(tx, input, contact, journeys) : 0;
    const id = newId("evt");
    const [row] = await queryRows<{ created_at: string }>(
      tx,
      sql`insert into journey_events (id, workspace_id, name, contact_id, phone_number, properties, runs_started, runs_ended)
        values (${id}, ${input.workspaceId}, ${input.name}, ${contact?.id ?? null}, ${contact?.phone ?? phone}, ${JSON.stringify(input.properties)}::jsonb, ${runsStarted}, ${runsEnded})
        returning created_at`,
    );
    return { id, name: input.name, contactId: contact?.id ?? null, runsStarted, runsEnded, createdAt: new Date(row!.created_at).toISOString() };
  });
}
