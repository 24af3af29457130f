"use client";

import { Moon, Repeat } from "lucide-react";
import type * as React from "react";
import { useWatch } from "react-hook-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { describePeriod, NO_SEND_POLICY, type FrequencyCap, type QuietHours, type SendPolicy } from "@/lib/campaigns/send-policy";
import type { BuilderForm } from "./builder-parts";
import { NativeSelect } from "./native-select";

const DEFAULT_QUIET: QuietHours = { start: "21:00", end: "08:00" };
const DEFAULT_CAP: FrequencyCap = { limit: 2, periodHours: 168, scope: "workspace" };
const PERIODS = [1, 6, 12, 24, 48, 72, 168, 336, 720];

/**
 * Quiet hours and a frequency cap, for both builders: a controlled value, written back whole on
 * every change. `errors` are the server's messages by path (`sendPolicy.quietHours.end`, …).
 */
export function SendPolicyFields({
  value,
  onChange,
  disabled,
  errors = {},
}: {
  value: SendPolicy | undefined;
  onChange: (next: SendPolicy) => void;
  disabled?: boolean;
  errors?: Record<string, string | undefined>;
}) {
  const policy = value ?? NO_SEND_POLICY;
  const quiet = policy.quietHours;
  const cap = policy.frequencyCap;
  const quietError = errors["sendPolicy.quietHours.start"] ?? errors["sendPolicy.quietHours.end"] ?? errors["sendPolicy.quietHours"];
  const capError = errors["sendPolicy.frequencyCap.limit"] ?? errors["sendPolicy.frequencyCap.periodHours"] ?? errors["sendPolicy.frequencyCap"];

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Send policy</CardTitle>
        <CardDescription>Respect your contacts&apos; nights and inboxes. Test sends ignore both.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <fieldset className="grid gap-2 rounded-lg border p-3" disabled={disabled}>
          <legend className="sr-only">Quiet hours</legend>
          <PolicySwitch
            checked={Boolean(quiet)}
            onChange={(on) => onChange({ ...policy, quietHours: on ? DEFAULT_QUIET : null })}
            icon={<Moon aria-hidden className="size-3.5" />}
            title="Quiet hours"
          >
            No sends in this window of the contact&apos;s local time (their <code className="font-mono">timezone</code> attribute, else guessed
            from the phone&apos;s country). Messages wait and go out when it ends.
          </PolicySwitch>
          {quiet && (
            <div className="ml-6 flex flex-wrap items-center gap-2 text-sm">
              <label htmlFor="quiet-start">From</label>
              <Input
                id="quiet-start"
                type="time"
                className="w-32"
                value={quiet.start}
                aria-invalid={quietError ? true : undefined}
                onChange={(event) => onChange({ ...policy, quietHours: { ...quiet, start: event.target.value } })}
              />
              <label htmlFor="quiet-end">until</label>
              <Input
                id="quiet-end"
                type="time"
                className="w-32"
                value={quiet.end}
                aria-invalid={quietError ? true : undefined}
                aria-describedby={quietError ? "quiet-error" : undefined}
                onChange={(event) => onChange({ ...policy, quietHours: { ...quiet, end: event.target.value } })}
              />
            </div>
          )}
          {quietError && (
            <p id="quiet-error" role="alert" className="ml-6 text-xs font-medium text-destructive">
              {quietError}
            </p>
          )}
        </fieldset>

        <fieldset className="grid gap-2 rounded-lg border p-3" disabled={disabled}>
          <legend className="sr-only">Frequency cap</legend>
          <PolicySwitch
            checked={Boolean(cap)}
            onChange={(on) => onChange({ ...policy, frequencyCap: on ? DEFAULT_CAP : null })}
            icon={<Repeat aria-hidden className="size-3.5" />}
            title="Frequency cap"
          >
            A contact over the cap gets nothing: the message is recorded as skipped (<code className="font-mono">frequency_cap</code>).
          </PolicySwitch>
          {cap && (
            <div className="ml-6 flex flex-wrap items-center gap-2 text-sm">
              <label htmlFor="cap-limit">At most</label>
              <Input
                id="cap-limit"
                type="number"
                min={1}
                max={100}
                className="w-20"
                value={cap.limit}
                aria-invalid={capError ? true : undefined}
                aria-describedby={capError ? "cap-error" : undefined}
                onChange={(event) => onChange({ ...policy, frequencyCap: { ...cap, limit: Number(event.target.value) } })}
              />
              <span>messages per contact per</span>
              <NativeSelect
                aria-label="Period"
                className="w-32"
                value={cap.periodHours}
                onChange={(event) => onChange({ ...policy, frequencyCap: { ...cap, periodHours: Number(event.target.value) } })}
              >
                {[...new Set([...PERIODS, cap.periodHours])]
                  .sort((a, b) => a - b)
                  .map((hours) => (
                    <option key={hours} value={hours}>
                      {describePeriod(hours)}
                    </option>
                  ))}
              </NativeSelect>
              <span>from</span>
              <NativeSelect
                aria-label="Counted messages"
                className="w-44"
                value={cap.scope}
                onChange={(event) => onChange({ ...policy, frequencyCap: { ...cap, scope: event.target.value as FrequencyCap["scope"] } })}
              >
                <option value="campaign">this campaign</option>
                <option value="workspace">all campaigns</option>
              </NativeSelect>
            </div>
          )}
          {capError && (
            <p id="cap-error" role="alert" className="ml-6 text-xs font-medium text-destructive">
              {capError}
            </p>
          )}
        </fieldset>
      </CardContent>
    </Card>
  );
}

/** One rule's on/off switch, its name and what it does. */
function PolicySwitch({
  checked,
  onChange,
  icon,
  title,
  children,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" role="switch" className="mt-0.5 size-4 accent-[var(--primary)]" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span className="grid gap-0.5">
        <span className="flex items-center gap-1.5 font-medium">
          {icon} {title}
        </span>
        <span className="text-xs text-muted-foreground">{children}</span>
      </span>
    </label>
  );
}

/** The policy in words, for the deploy and launch dialogs. */
export function SendPolicySummary({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="rounded-lg border bg-muted/40 p-3 text-sm">
      <p className="text-xs font-medium text-muted-foreground">Send policy</p>
      <ul className="mt-1 grid gap-0.5" aria-label="Send policy">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** The trigger builder's send policy, bound to its form. */
export function BuilderSendPolicy({ form, disabled }: { form: BuilderForm; disabled?: boolean }) {
  const value = useWatch({ control: form.control, name: "sendPolicy" }) as SendPolicy | undefined;
  return (
    <SendPolicyFields
      value={value}
      onChange={(next) => form.setValue("sendPolicy", next, { shouldDirty: true, shouldValidate: true })}
      disabled={disabled}
      errors={sendPolicyErrors(form.formState.errors.sendPolicy)}
    />
  );
}

/** react-hook-form's nested errors of `sendPolicy` as the paths SendPolicyFields reads. */
function sendPolicyErrors(errors: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== "object") return;
    const message = (node as { message?: unknown }).message;
    if (typeof message === "string") out[path] = message;
    for (const [key, child] of Object.entries(node)) if (key !== "message" && key !== "ref" && key !== "type") walk(child, `${path}.${key}`);
  };
  walk(errors, "sendPolicy");
  return out;
}
