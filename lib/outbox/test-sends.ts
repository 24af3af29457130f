// Test sends (`source = 'test'`): real messages, composed like the campaign's own, sent before
// bulk messages, never counted in a funnel or a frequency cap, and changing no contact. One INSERT
// for the whole request; the caller dispatches them (`dispatchSoon`).
import type { Executor } from "@/db";
import { messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import type { OutboundDraft } from "./compose";

export type StoredMessage = typeof messages.$inferSelect;

export interface TestMessage {
  draft: Pick<OutboundDraft, "phone" | "senderId" | "template" | "renderedText" | "payload">;
  /** The stored contact with this phone, if any (a test send never creates one). */
  contactId: string | null;
  /** `skipped` with its error code and reason (the contact opted out): recorded, never sent. */
  skip?: { errorCode: string; errorReason: string } | null;
  /** A journey test run's send step (lib/journeys). */
  journeyRunId?: string | null;
  journeyStepId?: string | null;
}

/** Stores one test message per entry, `queued` (due now) or `skipped`; returns the stored rows in order. */
export async function queueTestMessages(db: Executor, input: { workspaceId: string; campaignId: string; messages: TestMessage[] }): Promise<StoredMessage[]> {
  if (input.messages.length === 0) return [];
  const now = new Date();
  const rows = input.messages.map(({ draft, contactId, skip, journeyRunId, journeyStepId }) => ({
    id: newId("msg"),
    workspaceId: input.workspaceId,
    campaignId: input.campaignId,
    contactId,
    senderId: draft.senderId,
    phoneNumber: draft.phone,
    templateName: draft.template.name,
    templateLanguage: draft.template.language,
    renderedText: draft.renderedText,
    payload: draft.payload as Record<string, unknown>,
    status: skip ? ("skipped" as const) : ("queued" as const),
    source: "test" as const,
    errorCode: skip?.errorCode ?? null,
    errorReason: skip?.errorReason ?? null,
    journeyRunId: journeyRunId ?? null,
    journeyStepId: journeyStepId ?? null,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  const inserted = await db.insert(messages).values(rows).returning();
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return rows.map((row) => byId.get(row.id)!);
}
