// The JSON body of an event, rendered from the row the database trigger captured when the change
// committed (snake_case columns, timestamps as text). A message event carries the same message
// object as `GET /api/v1/messages/{id}`, as it was at that moment.
import type { MessageSource, MessageStatus, WebhookEventType } from "@/db/schema";
import { toPublicMessage, type PublicMessageRow } from "@/lib/messaging/public-message";

export interface StoredEvent {
  id: string;
  type: WebhookEventType;
  createdAt: Date;
  snapshot: Record<string, unknown>;
}

type Snapshot = Record<string, unknown>;

const text = (row: Snapshot, key: string): string => String(row[key] ?? "");
const textOrNull = (row: Snapshot, key: string): string | null => (row[key] == null ? null : String(row[key]));
const dateOrNull = (row: Snapshot, key: string): Date | null => (row[key] == null ? null : new Date(String(row[key])));
const isoOrNull = (row: Snapshot, key: string): string | null => dateOrNull(row, key)?.toISOString() ?? null;

export function messageFromSnapshot(row: Snapshot): PublicMessageRow {
  return {
    id: text(row, "id"),
    status: text(row, "status") as MessageStatus,
    campaignId: textOrNull(row, "campaign_id"),
    phoneNumber: text(row, "phone_number"),
    templateName: textOrNull(row, "template_name"),
    templateLanguage: textOrNull(row, "template_language"),
    renderedText: text(row, "rendered_text"),
    providerMessageId: textOrNull(row, "wamid"),
    errorCode: textOrNull(row, "error_code"),
    errorReason: textOrNull(row, "error_reason"),
    attempts: Number(row.attempts ?? 0),
    nextAttemptAt: dateOrNull(row, "next_attempt_at") ?? new Date(0),
    source: text(row, "source") as MessageSource,
    createdAt: dateOrNull(row, "created_at") ?? new Date(0),
    updatedAt: dateOrNull(row, "updated_at") ?? new Date(0),
    sentAt: dateOrNull(row, "sent_at"),
    deliveredAt: dateOrNull(row, "delivered_at"),
    readAt: dateOrNull(row, "read_at"),
    failedAt: dateOrNull(row, "failed_at"),
    repliedAt: dateOrNull(row, "replied_at"),
  };
}

function eventData(event: StoredEvent): Record<string, unknown> {
  const row = event.snapshot;
  if (event.type.startsWith("message.")) return toPublicMessage(messageFromSnapshot(row)) as unknown as Record<string, unknown>;
  if (event.type === "campaign.completed") {
    return {
      object: "campaign",
      id: text(row, "id"),
      name: text(row, "name"),
      kind: text(row, "kind"),
      status: text(row, "status"),
      launchedAt: isoOrNull(row, "launched_at"),
      completedAt: isoOrNull(row, "completed_at"),
      /** Messages per status when it completed. */
      counts: (row.counts as Record<string, number> | undefined) ?? {},
    };
  }
  if (event.type === "contact.opted_out") {
    return {
      object: "contact",
      id: text(row, "id"),
      phone: text(row, "phone_number"),
      name: textOrNull(row, "name"),
      optedOut: true,
      optedOutAt: isoOrNull(row, "opted_out_at"),
      optOutMethod: textOrNull(row, "opt_out_method"),
      optOutDetail: textOrNull(row, "opt_out_detail"),
    };
  }
  return { object: "webhook_test", ...row };
}

/** `{ id, type, timestamp, data }`: the body every attempt of this event signs and sends. */
export function renderEventBody(event: StoredEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: eventData(event) });
}
