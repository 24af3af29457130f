// A wait step: a duration, the next time of day in a time zone (the step's, else the contact's), or
// a date attribute ± an offset. The run waits with the timer token; a time already past (a date in
// the past, a missing date) continues at once and the history says why.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { JourneyWait, JourneyStep } from "@/lib/campaigns/journey";
import { contactTimeZone } from "@/lib/campaigns/quiet-hours";
import { scaledDue, TIMER_TOKEN, type StepContext, type StepResult } from "../run";

type WaitStep = Extract<JourneyStep, { type: "wait" }>;

/** Minutes since local midnight at `at` in `timeZone`, and the seconds into that minute. */
function localClock(at: Date, timeZone: string): { minutes: number; seconds: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minutes: get("hour") * 60 + get("minute"), seconds: get("second") };
}

/** Seconds from `now` to the next `HH:MM` in `timeZone` (a daylight-saving change inside the wait is corrected for once). */
export function secondsUntilTimeOfDay(now: Date, time: string, timeZone: string): number {
  const target = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const clock = localClock(now, timeZone);
  let minutes = (target - clock.minutes + 1440) % 1440;
  if (minutes === 0 && clock.seconds > 0) minutes = 1440;
  let seconds = minutes * 60 - clock.seconds - now.getMilliseconds() / 1000;
  const drift = (target - localClock(new Date(now.getTime() + seconds * 1000), timeZone).minutes + 1440) % 1440;
  if (drift !== 0) seconds += (drift > 720 ? drift - 1440 : drift) * 60;
  return Math.max(0, seconds);
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

async function contactRow(context: StepContext): Promise<{ name: string | null; attributes: Record<string, unknown> } | null> {
  const [row] = await queryRows<{ name: string | null; attributes: Record<string, unknown> }>(
    context.tx,
    sql`select name, attributes from contacts where id = ${context.run.contact_id}`,
  );
  return row ?? null;
}

/** Seconds to wait (unscaled), or why the run goes on at once. */
async function waitSeconds(context: StepContext, wait: JourneyWait): Promise<{ seconds: number } | { now: string }> {
  if (wait.kind === "duration") return { seconds: wait.seconds };
  const contact = await contactRow(context);
  if (wait.kind === "time_of_day") {
    const zone = wait.timeZone && isTimeZone(wait.timeZone) ? wait.timeZone : contactTimeZone(context.run.phone_number, contact?.attributes);
    return { seconds: secondsUntilTimeOfDay(context.now, wait.time, zone) };
  }
  const raw = contact?.attributes?.[wait.attribute];
  const date = typeof raw === "string" || typeof raw === "number" ? new Date(raw) : null;
  if (!date || Number.isNaN(date.getTime())) return { now: `The contact has no date in "${wait.attribute}"; continued at once.` };
  const at = date.getTime() + wait.offsetSeconds * 1000;
  if (at <= context.now.getTime()) return { now: `The date in "${wait.attribute}" (with its offset) has passed; continued at once.` };
  return { seconds: (at - context.now.getTime()) / 1000 };
}

export async function runWaitStep(context: StepContext, step: WaitStep): Promise<StepResult> {
  const waited = await waitSeconds(context, step.wait);
  if ("now" in waited) return { kind: "next", history: { stepId: step.id, outcome: "waited", detail: waited.now }, next: step.next };
  return { kind: "wait", dueAt: scaledDue(context.now, waited.seconds, context.run.time_scale), waitToken: TIMER_TOKEN };
}
