// Wall-clock times in an IANA time zone ↔ instants, with nothing but Intl (no time zone library).

/** The browser's time zone, or UTC when it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Every IANA zone the runtime knows, with `preferred` first when it is missing from the list. */
export function timeZoneOptions(preferred: string): string[] {
  const supported = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  return supported.includes(preferred) ? supported : [preferred, ...supported];
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC, in minutes, at an instant. */
export function zoneOffsetMinutes(instant: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The instant at which clocks in `zone` show `local` (`YYYY-MM-DDTHH:mm`, as a datetime-local input
 * holds it); null when it is not a valid time. A time skipped by a daylight-saving jump resolves to
 * the same wall time on the far side of the jump, as calendars do.
 */
export function zonedTimeToInstant(local: string, zone: string): Date | null {
  const match = LOCAL_PATTERN.exec(local);
  if (!match || !isValidTimeZone(zone)) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  // The offsets a day either side cover every daylight-saving change; the first that shows the
  // wall time wins (the earlier instant of a repeated hour), a skipped hour keeps the offset before it.
  const before = wall - zoneOffsetMinutes(new Date(wall - 86_400_000), zone) * 60_000;
  const after = wall - zoneOffsetMinutes(new Date(wall + 86_400_000), zone) * 60_000;
  for (const candidate of [Math.min(before, after), Math.max(before, after)]) {
    if (instantToZonedTime(new Date(candidate), zone) === local) return new Date(candidate);
  }
  return new Date(before);
}

/** `YYYY-MM-DDTHH:mm` as clocks in `zone` show the instant (the value of a datetime-local input). */
export function instantToZonedTime(instant: Date, zone: string): string {
  const shifted = new Date(instant.getTime() + zoneOffsetMinutes(instant, zone) * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** "Tue, Nov 24, 2026, 9:00 AM GMT+1" in a given zone (the viewer's when omitted). */
export function formatInstant(instant: Date | string, zone?: string): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  return new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(date);
}
