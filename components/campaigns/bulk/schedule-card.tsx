"use client";

import { CalendarClock } from "lucide-react";
import { useMemo } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { NodeBadge } from "../builder-parts";
import { NativeSelect } from "../native-select";
import { browserTimeZone, formatInstant, timeZoneOptions, zonedTimeToInstant } from "./zoned-time";

export interface ScheduleValue {
  mode: "now" | "later";
  /** `YYYY-MM-DDTHH:mm` in `timeZone`. */
  local: string;
  timeZone: string;
}

/** The instant the schedule names, or an explanation of why it names none. */
export function scheduledInstant(value: ScheduleValue, now = new Date()): { instant: Date } | { error: string } {
  if (!value.local) return { error: "Pick a date and time." };
  const instant = zonedTimeToInstant(value.local, value.timeZone);
  if (!instant) return { error: "That date and time does not exist." };
  if (instant.getTime() <= now.getTime()) return { error: "Pick a time in the future." };
  return { instant };
}

/** Empty = the sender's full throughput; otherwise a whole number from 1 to the sender's limit. */
export function rateError(rate: string, limit: number): string | undefined {
  if (rate.trim() === "") return undefined;
  const value = Number(rate);
  if (!Number.isInteger(value) || value < 1) return "Use a whole number of messages per second, at least 1.";
  if (value > limit) return `Your sender sends at most ${limit} messages per second.`;
  return undefined;
}

export function ScheduleCard({
  schedule,
  onScheduleChange,
  rate,
  onRateChange,
  throughput,
  disabled,
}: {
  schedule: ScheduleValue;
  onScheduleChange: (next: ScheduleValue) => void;
  rate: string;
  onRateChange: (next: string) => void;
  throughput: number;
  disabled?: boolean;
}) {
  const zones = useMemo(() => timeZoneOptions(schedule.timeZone), [schedule.timeZone]);
  const viewerZone = browserTimeZone();
  const when = schedule.mode === "later" ? scheduledInstant(schedule) : null;
  const rateProblem = rateError(rate, throughput);

  return (
    <Card className="gap-4 border-l-4 border-l-sky-500" role="group" aria-labelledby="schedule-node-title">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={3} icon={<CalendarClock />} />
          <div className="min-w-0">
            <CardTitle id="schedule-node-title">Schedule: when and how fast</CardTitle>
            <CardDescription className="mt-1">Messages go out in order at the rate you choose, never faster than your sender allows.</CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <fieldset disabled={disabled} className="grid gap-2 sm:grid-cols-2">
          <legend className="sr-only">When to send</legend>
          {(["now", "later"] as const).map((mode) => (
            <label
              key={mode}
              className={cn(
                "flex cursor-pointer items-start gap-2.5 rounded-lg border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring",
              )}
            >
              <input
                type="radio"
                name="schedule-mode"
                value={mode}
                className="mt-0.5 size-4 accent-[var(--primary)]"
                checked={schedule.mode === mode}
                onChange={() => onScheduleChange({ ...schedule, mode })}
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{mode === "now" ? "Send now" : "Schedule for later"}</span>
                <span className="text-xs text-muted-foreground">{mode === "now" ? "Starts as soon as you launch." : "Starts at a date and time you pick."}</span>
              </span>
            </label>
          ))}
        </fieldset>

        {schedule.mode === "later" && (
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <label htmlFor="schedule-local" className="text-sm font-medium">
                Date and time
              </label>
              <Input
                id="schedule-local"
                type="datetime-local"
                disabled={disabled}
                value={schedule.local}
                aria-invalid={when && "error" in when ? true : undefined}
                aria-describedby="schedule-when"
                onChange={(event) => onScheduleChange({ ...schedule, local: event.target.value })}
              />
            </div>
            <div className="grid gap-1.5">
              <label htmlFor="schedule-zone" className="text-sm font-medium">
                Time zone
              </label>
              <NativeSelect id="schedule-zone" disabled={disabled} value={schedule.timeZone} onChange={(event) => onScheduleChange({ ...schedule, timeZone: event.target.value })}>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll("_", " ")}
                    {zone === viewerZone ? " (yours)" : ""}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <p id="schedule-when" className={cn("text-xs sm:col-span-2", when && "error" in when ? "font-medium text-destructive" : "text-muted-foreground")} aria-live="polite">
              {when && "instant" in when
                ? schedule.timeZone === viewerZone
                  ? `Starts ${formatInstant(when.instant, schedule.timeZone)}.`
                  : `Starts ${formatInstant(when.instant, schedule.timeZone)} — ${formatInstant(when.instant)} your time.`
                : when?.error}
            </p>
          </div>
        )}

        <div className="grid gap-1.5 sm:max-w-xs">
          <label htmlFor="send-rate" className="text-sm font-medium">
            Sending rate (messages per second)
          </label>
          <Input
            id="send-rate"
            type="number"
            inputMode="numeric"
            min={1}
            max={throughput}
            step={1}
            placeholder={String(throughput)}
            disabled={disabled}
            value={rate}
            aria-invalid={rateProblem ? true : undefined}
            aria-describedby="send-rate-hint"
            onChange={(event) => onRateChange(event.target.value)}
          />
          <p id="send-rate-hint" className={cn("text-xs", rateProblem ? "font-medium text-destructive" : "text-muted-foreground")}>
            {rateProblem ?? `Your sender's limit is ${throughput} messages per second. Leave empty to send at that limit.`}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
