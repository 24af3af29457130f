import type { MessageStatus } from "@/db/schema";

/**
 * Statuses as logs show them. `sending` (a dispatcher holds the message right now) is shown,
 * counted, filtered and exported as `queued`: to the user it has not left yet.
 */
export const LOG_STATUSES = ["queued", "sent", "delivered", "read", "failed", "skipped"] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

export function toLogStatus(status: MessageStatus): LogStatus {
  return status === "sending" ? "queued" : status;
}

/** Stored statuses a display status stands for. */
export function storedStatuses(status: LogStatus): MessageStatus[] {
  return status === "queued" ? ["queued", "sending"] : [status];
}

export type StatusCounts = Record<LogStatus, number> & { total: number };
