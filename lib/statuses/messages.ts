// The statuses of messages as the logs, filters, counts and exports show them (over the stored statuses).
import type { MessageStatus } from "@/db/schema";
import type { Funnel } from "@/lib/campaigns/funnel";

export type { MessageStatus };

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

/**
 * The logs' counts: the campaign funnel (a read message is also counted as sent and delivered),
 * `total` every counted message once, `tests` the test sends listed but not counted.
 */
export type StatusCounts = Funnel & { total: number; tests: number };

/**
 * The display statuses a funnel step's tile filters by, so a tile shows as many messages as it
 * counts: "Sent" lists sent, delivered and read messages, "Delivered" delivered and read ones.
 */
export const FUNNEL_STEP_STATUSES: Record<LogStatus, LogStatus[]> = {
  queued: ["queued"],
  sent: ["sent", "delivered", "read"],
  delivered: ["delivered", "read"],
  read: ["read"],
  failed: ["failed"],
  skipped: ["skipped"],
};

/** The funnel step whose tile selects exactly these statuses, if any. */
export function funnelStepOf(statuses: readonly LogStatus[]): LogStatus | null {
  const wanted = [...new Set(statuses)].sort().join(",");
  const match = LOG_STATUSES.find((step) => [...FUNNEL_STEP_STATUSES[step]].sort().join(",") === wanted);
  return match ?? null;
}

/** The status filter's choices: the tiles' funnel steps first, then a message's current status alone. */
export const STATUS_FILTER_OPTIONS: { value: string; label: string }[] = [
  { value: "queued", label: "Queued" },
  { value: "sent,delivered,read", label: "Sent (incl. delivered and read)" },
  { value: "delivered,read", label: "Delivered (incl. read)" },
  { value: "read", label: "Read" },
  { value: "failed", label: "Failed" },
  { value: "skipped", label: "Skipped" },
  { value: "sent", label: "Sent, not delivered yet" },
  { value: "delivered", label: "Delivered, not read yet" },
];

const sameSet = (a: string, b: string) => {
  const norm = (value: string) => [...new Set(value.split(",").map((part) => part.trim().toLowerCase()).filter(Boolean))].sort().join(",");
  return norm(a) === norm(b);
};

/** The option a raw `status` search param selects; an unusual combination gets an option of its own. */
export function statusFilterOptions(raw: string | undefined): { options: { value: string; label: string }[]; selected: string } {
  if (!raw) return { options: STATUS_FILTER_OPTIONS, selected: "" };
  const match = STATUS_FILTER_OPTIONS.find((option) => sameSet(option.value, raw));
  if (match) return { options: STATUS_FILTER_OPTIONS, selected: match.value };
  return { options: [...STATUS_FILTER_OPTIONS, { value: raw, label: raw.split(",").join(", ") }], selected: raw };
}
