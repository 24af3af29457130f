// Journey test data seeded directly: a trigger campaign with a published journey, contacts, and runs with history
// inserted as the runner would have left them.
import { getDb } from "@/db";
import { eq } from "drizzle-orm";
import { campaigns, contacts, journeyRuns, journeyRunSteps, journeyVersions, type JourneyRunStatus } from "@/db/schema";
import { journeySchema, type Journey, type JourneyInput } from "@/lib/campaigns/journey";
import { newId } from "@/lib/crypto/random";
import { ORDER_MESSAGE_CONFIG } from "./trigger-factories";

/** Send a reminder, wait an hour, send a second one: three steps. */
export function reminderJourney(templateId: string, overrides: Partial<JourneyInput> = {}): Journey {
  return journeySchema.parse({
    firstStepId: "remind",
    steps: [
      { id: "remind", name: "Reminder", type: "send", templateId, messageConfig: ORDER_MESSAGE_CONFIG, next: "pause" },
      { id: "pause", name: "An hour", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "again" },
      { id: "again", name: "Second reminder", type: "send", templateId, messageConfig: ORDER_MESSAGE_CONFIG, next: null },
    ],
    exitEvents: [{ kind: "event", name: "order_placed" }],
    goal: { kind: "event", name: "order_placed" },
    ...overrides,
  });
}

/** Publishes `journey` as the campaign's version 1. */
export async function publishJourney(campaignId: string, journey: Journey, version = 1): Promise<void> {
  const db = await getDb();
  await db.update(campaigns).set({ journey, journeyVersion: version }).where(eq(campaigns.id, campaignId));
  await db.insert(journeyVersions).values({ campaignId, version, document: journey });
}

let phoneCounter = 0;
export async function insertContact(workspaceId: string, phone = `+1415557${String(++phoneCounter).padStart(4, "0")}`) {
  const db = await getDb();
  const [row] = await db.insert(contacts).values({ id: newId("ctc"), workspaceId, phoneNumber: phone }).returning();
  return row!;
}

export interface RunInput {
  status?: JourneyRunStatus;
  stepId?: string | null;
  /** History rows in order: `[stepId, outcome]`. */
  history?: [string, string][];
  entry?: string;
  enteredAt?: Date;
  convertedAt?: Date | null;
  contactId?: string;
  phone?: string;
}

/** A run of the campaign's version 1 for a new contact (or `contactId`), with its history. */
export async function insertRun(workspaceId: string, campaignId: string, input: RunInput = {}) {
  const db = await getDb();
  const contact = input.contactId ? { id: input.contactId, phoneNumber: input.phone ?? "+14155550100" } : await insertContact(workspaceId);
  const enteredAt = input.enteredAt ?? new Date(Date.now() - 3_600_000);
  const status = input.status ?? "active";
  const [run] = await db
    .insert(journeyRuns)
    .values({
      id: newId("run"),
      workspaceId,
      campaignId,
      version: 1,
      contactId: contact.id,
      phoneNumber: contact.phoneNumber,
      status,
      stepId: input.stepId === undefined ? (["active", "waiting"].includes(status) ? "remind" : null) : input.stepId,
      entry: input.entry ?? "trigger",
      enteredAt,
      convertedAt: input.convertedAt ?? null,
      endedAt: ["active", "waiting"].includes(status) ? null : new Date(),
    })
    .returning();
  const history = input.history ?? [];
  if (history.length > 0) {
    await db.insert(journeyRunSteps).values(
      history.map(([stepId, outcome], index) => ({
        id: newId("jrs"),
        runId: run!.id,
        campaignId,
        stepId,
        outcome,
        at: new Date(enteredAt.getTime() + (index + 1) * 1000),
      })),
    );
  }
  return run!;
}
