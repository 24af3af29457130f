"use client";

import { AlertTriangle, CheckCircle2, Rocket, XCircle } from "lucide-react";
import { useState, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { SendPolicySummary } from "../send-policy-fields";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { requestJson } from "@/lib/http/client";
import { cn } from "@/lib/utils";
import { ConsentSplit } from "./consent-split";
import { launchFigures } from "@/lib/bulk/launch-figures";
import type { LaunchCheck } from "./types";
import { formatInstant } from "./zoned-time";

const number = (n: number) => n.toLocaleString("en-US");

const TIER_LABELS: Record<string, string> = {
  TIER_250: "250 recipients / 24 h",
  TIER_2K: "2,000 recipients / 24 h",
  TIER_10K: "10,000 recipients / 24 h",
  TIER_100K: "100,000 recipients / 24 h",
  TIER_UNLIMITED: "Unlimited",
};

export function tierLabel(tier: LaunchCheck["tier"], sandbox = false): string {
  if (sandbox) return "Sandbox — unlimited";
  const known = tier.tier ? TIER_LABELS[tier.tier] : undefined;
  if (known) return known;
  if (tier.limit === null) return tier.tier ?? "Not known yet";
  return `${number(tier.limit)} recipients / 24 h`;
}

/** Later: `scheduledAt` is the wall time in `timeZone` (as the API takes it), `startsAt` the instant it names. */
export type LaunchPlan = { kind: "now" } | { kind: "later"; scheduledAt: string; startsAt: string; timeZone: string };

/** The launch check, the daily limit and the one button that launches (or schedules) the campaign. */
export function LaunchDialog({
  open,
  onOpenChange,
  campaignId,
  version,
  check,
  plan,
  sandbox,
  policy = [],
  onLaunched,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  campaignId: string;
  version: number;
  check: LaunchCheck | null;
  plan: LaunchPlan;
  sandbox: boolean;
  /** The campaign's send policy in words; empty when none. */
  policy?: string[];
  onLaunched: () => void;
  /** The button that opened the dialog: it is opened programmatically (after a save), so focus goes back here on close. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const later = plan.kind === "later";
  const [includeUnknown, setIncludeUnknown] = useState<boolean | null>(null);
  const include = includeUnknown ?? check?.consent.includeUnknown ?? false;
  // A marketing template's unknown-consent contacts are stored as skipped unless included; contacts
  // with an empty blank get a skipped message (listed in the logs with why), never a send.
  const figures = check ? launchFigures(check, include) : null;
  const skipped = figures?.skippedForEmptyVariables ?? 0;
  const toSend = figures?.toSend ?? 0;
  const sendableNow = figures?.sendableNow ?? 0;
  const exceedsTier = figures?.exceedsTier ?? false;
  const waiting = toSend - sendableNow;

  async function launch(allowTierWait: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      const consent = check?.consent.marketing ? { includeUnknownConsent: include } : {};
      const body = later ? { scheduledAt: plan.scheduledAt, timeZone: plan.timeZone, version, allowTierWait, ...consent } : { version, allowTierWait, ...consent };
      const result = await requestJson(`/api/v1/campaigns/${campaignId}/${later ? "schedule" : "launch"}`, { method: "POST", body });
      if (!result.ok) {
        setError(result.problem.errors?.map((e) => e.message).join(" ") || result.problem.detail);
        return;
      }
      onOpenChange(false);
      onLaunched();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent
        className="max-w-xl"
        onCloseAutoFocus={(event) => {
          const target = returnFocusTo?.current;
          if (!target) return;
          event.preventDefault();
          target.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{later ? "Schedule this campaign?" : "Launch this campaign?"}</DialogTitle>
          <DialogDescription>
            {later && plan.kind === "later"
              ? `It starts ${formatInstant(plan.startsAt, plan.timeZone)}. The audience is taken at that moment.`
              : "Every recipient gets one message. The audience is taken now; contacts added later are not included."}
          </DialogDescription>
        </DialogHeader>
        {!check ? (
          <p className="text-sm text-muted-foreground" role="status">
            Checking…
          </p>
        ) : (
          <div className="grid gap-4">
            <ul className="grid gap-2" aria-label="Launch check">
              <CheckRow ok={check.audienceCount > 0} label={`Audience: ${number(check.audienceCount)} ${check.audienceCount === 1 ? "recipient" : "recipients"}`} />
              {skipped > 0 && (
                <li className="flex items-start gap-2 text-sm text-amber-800" data-testid="launch-skipped">
                  <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-label="Warning" />
                  <span>
                    {number(skipped)} of them {skipped === 1 ? "is" : "are"} skipped, not sent: a blank has no value and no fallback (counted as skipped and listed in the logs with why).
                  </span>
                </li>
              )}
              {check.errors.map((e) => (
                <CheckRow key={`${e.path}:${e.code}`} ok={false} label={e.message} />
              ))}
              {check.errors.length === 0 && <CheckRow ok label="Template approved and sender ready" />}
              {check.warnings.map((w) => (
                <li key={`${w.path}:${w.code}`} className="flex items-start gap-2 text-sm text-amber-800">
                  <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-label="Warning" />
                  <span>{w.message}</span>
                </li>
              ))}
            </ul>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg border p-3 text-sm sm:grid-cols-4" aria-label="Daily messaging limit">
              <Stat term="Daily limit" value={tierLabel(check.tier, sandbox)} wide />
              <Stat term="Used last 24 h" value={number(check.tier.usedLast24h)} />
              <Stat term="Available now" value={check.tier.available === null ? "No limit" : number(check.tier.available)} />
              <Stat term="Sending rate" value={`${number(check.sendRatePerSecond)} / second`} wide />
              <Stat term="Takes about" value={duration(figures?.estimatedDurationSeconds ?? 0)} wide />
            </dl>
            {exceedsTier && (
              <div role="status" className="flex items-start gap-2.5 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                <p>
                  Your daily limit lets <strong>{number(sendableNow)}</strong> of {number(toSend)} go out now. The other {number(waiting)} wait
                  until the limit frees up
                  {" "}(it counts unique recipients over a rolling 24 hours).
                </p>
              </div>
            )}
            <ConsentSplit consent={check.consent} includeUnknown={include} onIncludeUnknown={setIncludeUnknown} disabled={busy} />
            <SendPolicySummary lines={policy} />
            {error && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            Not yet
          </Button>
          {exceedsTier ? (
            <Button type="button" onClick={() => launch(true)} disabled={busy || !check?.ready} className="h-auto min-h-9 whitespace-normal">
              <Rocket aria-hidden />
              {busy ? "Launching…" : `Send ${number(sendableNow)} ${later ? "at the start" : "now"} and the rest as the limit frees up`}
            </Button>
          ) : (
            <Button type="button" onClick={() => launch(false)} disabled={busy || !check?.ready}>
              <Rocket aria-hidden />
              {busy ? (later ? "Scheduling…" : "Launching…") : later ? "Schedule" : `Send to ${number(toSend)} now`}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
}

function CheckRow({ ok, label }: { ok: boolean; label: string }) {
  return (
    <li className={cn("flex items-start gap-2 text-sm", !ok && "text-destructive")}>
      {ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-label="Passed" /> : <XCircle className="mt-0.5 size-4 shrink-0" aria-label="Failed" />}
      <span>{label}</span>
    </li>
  );
}

function Stat({ term, value, wide }: { term: string; value: string; wide?: boolean }) {
  return (
    <div className={cn("min-w-0", wide && "col-span-2")}>
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
