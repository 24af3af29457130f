// A campaign's send policy: quiet hours in the contact's time zone (messages wait and go out when
// they end) and a per-contact frequency cap (over it → `skipped`, reason `frequency_cap`). The
// schema is shared by the builders (browser) and the API; when quiet hours hold is quiet-hours.ts.
import { z } from "zod";

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const quietHoursSchema = z
  .object({
    start: z.string().regex(TIME, "Use HH:MM, 24-hour.").meta({ example: "21:00" }),
    end: z.string().regex(TIME, "Use HH:MM, 24-hour.").meta({ example: "08:00" }),
  })
  .strict()
  .refine((hours) => hours.start !== hours.end, { message: "Quiet hours need a different start and end.", path: ["end"] })
  .meta({ description: "No sends from `start` until `end` in the contact's local time (it may span midnight); messages wait and go out at `end`." });

export const FREQUENCY_SCOPES = ["campaign", "workspace"] as const;

export const frequencyCapSchema = z
  .object({
    limit: z.number().int("Use a whole number.").min(1, "At least 1.").max(100, "At most 100."),
    periodHours: z.number().int("Use a whole number of hours.").min(1, "At least 1 hour.").max(720, "At most 30 days (720 hours)."),
    scope: z.enum(FREQUENCY_SCOPES).meta({ description: "`campaign`: messages of this campaign; `workspace`: of every campaign of the workspace." }),
  })
  .strict()
  .meta({ description: "At most `limit` messages to one contact per `periodHours`; a message over it is `skipped` with error `frequency_cap`." });

export const sendPolicySchema = z
  .object({ quietHours: quietHoursSchema.nullable(), frequencyCap: frequencyCapSchema.nullable() })
  .strict()
  .meta({ description: "Quiet hours and a frequency cap; null members are off. New campaigns: both off." });

export type QuietHours = z.output<typeof quietHoursSchema>;
export type FrequencyCap = z.output<typeof frequencyCapSchema>;
export type SendPolicy = z.output<typeof sendPolicySchema>;

export const NO_SEND_POLICY: SendPolicy = { quietHours: null, frequencyCap: null };

/** Reads the stored column leniently: what does not parse is off. */
export function parseStoredSendPolicy(value: unknown): SendPolicy {
  const raw = (value ?? {}) as Record<string, unknown>;
  const quiet = quietHoursSchema.safeParse(raw.quietHours);
  const cap = frequencyCapSchema.safeParse(raw.frequencyCap);
  return { quietHours: quiet.success ? quiet.data : null, frequencyCap: cap.success ? cap.data : null };
}

export const FREQUENCY_CAP_CODE = "frequency_cap";

export function frequencyCapReason(cap: FrequencyCap): string {
  return `Frequency cap: this contact already got ${cap.limit} message${cap.limit === 1 ? "" : "s"} from ${cap.scope === "campaign" ? "this campaign" : "this workspace"} in the last ${describePeriod(cap.periodHours)}.`;
}

export function describePeriod(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? "day" : `${hours / 24} days`;
  return hours === 1 ? "hour" : `${hours} hours`;
}

/** One line for the builder, the deploy dialog and the docs: "Quiet 21:00–08:00 · at most 2 per 7 days from this campaign". */
export function describeSendPolicy(policy: SendPolicy): string[] {
  const lines: string[] = [];
  if (policy.quietHours) lines.push(`No sends ${policy.quietHours.start}–${policy.quietHours.end} in each contact's time zone`);
  if (policy.frequencyCap) {
    const cap = policy.frequencyCap;
    lines.push(`At most ${cap.limit} per contact per ${describePeriod(cap.periodHours)} from ${cap.scope === "campaign" ? "this campaign" : "all campaigns"}`);
  }
  return lines;
}
