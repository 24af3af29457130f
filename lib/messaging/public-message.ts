// A message as callers see it: the same object from `GET /api/v1/messages/{id}`, the message lists
// and the logs pages. Messages a contact sent are `direction: "inbound"` (lib/inbound/public.ts).
import type { MessageSource, messages } from "@/db/schema";
import { toLogStatus, type LogStatus } from "@/lib/statuses/messages";

export interface PublicMessage {
  id: string;
  object: "message";
  /** Every message in `messages` is one we sent. */
  direction: "outbound";
  /** `sending` (a dispatcher holds the message right now) reads as `queued`. */
  status: LogStatus;
  /** Null for a conversation's reply (`source: "reply"`). */
  campaignId: string | null;
  phone: string;
  /** Null for a free-form reply (text, image, document). */
  template: { name: string; language: string } | null;
  /** The message as the recipient reads it. */
  text: string;
  /** WhatsApp message id once the provider accepted the message. */
  wamid: string | null;
  error: { code: string | null; reason: string } | null;
  attempts: number;
  /** When the next send attempt is due, while a message waits for a retry (queued after a failed attempt); null otherwise. */
  nextAttemptAt: string | null;
  /** When the contact first replied to it (the campaign's `replied` step); null until then. */
  repliedAt: string | null;
  /** What created the message: a trigger call, a bulk campaign, a test send or a conversation's reply. */
  source: MessageSource;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
  /** Present only on a message a journey's send step queued: the run and the step (lib/journeys). */
  journeyStep?: { runId: string; stepId: string };
}

type MessageRow = typeof messages.$inferSelect;

/** The columns `toPublicMessage` reads. */
export type PublicMessageRow = Pick<
  MessageRow,
  | "id"
  | "status"
  | "campaignId"
  | "phoneNumber"
  | "templateName"
  | "templateLanguage"
  | "renderedText"
  | "providerMessageId"
  | "errorCode"
  | "errorReason"
  | "attempts"
  | "nextAttemptAt"
  | "source"
  | "createdAt"
  | "updatedAt"
  | "sentAt"
  | "deliveredAt"
  | "readAt"
  | "failedAt"
> &
  Partial<Pick<MessageRow, "repliedAt" | "journeyRunId" | "journeyStepId">>;

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function toPublicMessage(row: PublicMessageRow): PublicMessage {
  return {
    id: row.id,
    object: "message",
    direction: "outbound",
    status: toLogStatus(row.status),
    campaignId: row.campaignId,
    phone: row.phoneNumber,
    template: row.templateName && row.templateLanguage ? { name: row.templateName, language: row.templateLanguage } : null,
    text: row.renderedText,
    wamid: row.providerMessageId,
    error: row.status === "failed" || row.errorReason ? { code: row.errorCode, reason: row.errorReason ?? "Unknown error" } : null,
    attempts: row.attempts,
    nextAttemptAt: waitingForRetry(row) ? row.nextAttemptAt.toISOString() : null,
    repliedAt: iso(row.repliedAt ?? null),
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
    readAt: iso(row.readAt),
    failedAt: iso(row.failedAt),
    ...(row.journeyRunId && row.journeyStepId ? { journeyStep: { runId: row.journeyRunId, stepId: row.journeyStepId } } : {}),
  };
}

function waitingForRetry(row: PublicMessageRow): boolean {
  return row.status === "queued" && row.attempts > 0;
}
