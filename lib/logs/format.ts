// Display helpers shared by the server-rendered page and the live table (no server imports).

const timeFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** `Nov 21, 2026, 22:15:03` in UTC: identical on the server and in every browser. */
export function formatLogTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

export const STATUS_LABELS = {
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  failed: "Failed",
  skipped: "Skipped",
} as const;
