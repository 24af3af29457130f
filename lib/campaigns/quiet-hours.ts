// When a campaign's quiet hours hold for a contact, in the contact's own time zone. Pure; run by
// the dispatcher on every claim (lib/messaging/send-policies.ts).
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { COUNTRY_TIME_ZONES } from "@/lib/contacts/country-time-zones";
import type { QuietHours } from "./send-policy";

function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The contact's `timezone` attribute when it names a real zone, else a guess from the phone's country, else UTC. */
export function contactTimeZone(phone: string, attributes: Record<string, unknown> | null | undefined): string {
  if (isTimeZone(attributes?.timezone)) return attributes.timezone;
  const country = parsePhoneNumberFromString(phone)?.country;
  return (country && COUNTRY_TIME_ZONES[country]) || "UTC";
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Minutes since local midnight at `at` in `timeZone`. */
function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * When a message may go out: null when `now` is outside the quiet hours in `timeZone`, else the
 * moment they end (the start of the `end` minute, local time; a daylight-saving change inside the
 * wait is corrected for).
 */
export function quietHoursEnd(quiet: QuietHours, now: Date, timeZone: string): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const local = localMinutes(now, timeZone);
  const inside = start < end ? local >= start && local < end : local >= start || local < end;
  if (!inside) return null;
  const wait = (end - local + 1440) % 1440;
  const startOfMinute = now.getTime() - (now.getTime() % 60_000);
  let until = new Date(startOfMinute + wait * 60_000);
  // Across a daylight-saving change the local clock moved by the shift: correct once.
  const drift = (end - localMinutes(until, timeZone) + 1440) % 1440;
  if (drift !== 0) until = new Date(until.getTime() + (drift > 720 ? drift - 1440 : drift) * 60_000);
  return until;
}
