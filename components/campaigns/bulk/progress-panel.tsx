"use client";

import { Clock, Gauge } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";
import { LocalTime } from "./local-time";
import type { CampaignProgress } from "./types";

const number = (n: number) => n.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** Messages that are settled: every one no longer waiting to be sent. */
export function settledCount(progress: CampaignProgress): number {
  const { sent, failed, skipped } = progress.funnel;
  return sent + failed + skipped;
}

/** The live progress bar, the delivery funnel, failure reasons, rate and estimated finish. */
export function ProgressPanel({ progress }: { progress: CampaignProgress }) {
  const { funnel, total } = progress;
  const done = settledCount(progress);
  const donePercent = percent(done, total);
  const steps = [
    { key: "queued", label: "Queued", value: funnel.queued, hint: "waiting to be sent" },
    { key: "sent", label: "Sent", value: funnel.sent, hint: `${percent(funnel.sent, total)}% of ${number(total)}` },
    { key: "delivered", label: "Delivered", value: funnel.delivered, hint: `${percent(funnel.delivered, funnel.sent)}% of sent` },
    { key: "read", label: "Read", value: funnel.read, hint: `${percent(funnel.read, funnel.delivered)}% of delivered` },
    { key: "replied", label: "Replied", value: funnel.replied, hint: `${percent(funnel.replied, funnel.sent)}% of sent` },
  ];
  return (
    <Card role="region" aria-label="Sending progress">
      <CardContent className="grid grid-cols-1 gap-5">
        <div className="grid gap-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-medium">
              <span className="tabular-nums" data-testid="progress-done">
                {number(done)}
              </span>{" "}
              of <span className="tabular-nums">{number(total)}</span> settled
            </span>
            <span className="text-muted-foreground tabular-nums">{donePercent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label="Campaign progress"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={done}
            aria-valuetext={`${number(done)} of ${number(total)} messages settled`}
            className="flex h-2.5 overflow-hidden rounded-full bg-muted"
          >
            <div className="bg-primary transition-[width] duration-500" style={{ width: `${percent(funnel.sent, total)}%` }} />
            <div className="bg-destructive transition-[width] duration-500" style={{ width: `${percent(funnel.failed, total)}%` }} />
            <div className="bg-amber-400 transition-[width] duration-500" style={{ width: `${percent(funnel.skipped, total)}%` }} />
          </div>
        </div>

        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Delivery funnel">
          {steps.map((step) => (
            // Replied stands apart from the steps: a row of its own on a phone.
            <div key={step.key} className={cn("rounded-lg border px-3 py-2.5", step.key === "replied" && "col-span-2 sm:col-span-1")}>
              <dt className="text-xs text-muted-foreground">{step.label}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid={`funnel-${step.key}`}>
                {number(step.value)}
              </dd>
              <dd className="text-xs text-muted-foreground">{step.hint}</dd>
            </div>
          ))}
        </dl>

        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className={cn("min-w-0 rounded-lg border px-3 py-2.5", funnel.failed > 0 && "border-destructive/30 bg-destructive/5")}>
            <p className="flex items-baseline justify-between text-sm">
              <span className="font-medium">Failed</span>
              <span className={cn("font-semibold tabular-nums", funnel.failed > 0 && "text-destructive")} data-testid="funnel-failed">
                {number(funnel.failed)}
              </span>
            </p>
            {progress.topFailureReasons.length > 0 && (
              <ul className="mt-1.5 grid grid-cols-1 gap-1 text-xs" aria-label="Top failure reasons">
                {progress.topFailureReasons.map((reason) => (
                  <li key={`${reason.code}:${reason.reason}`} className="flex min-w-0 justify-between gap-3">
                    <span className="min-w-0 truncate text-muted-foreground" title={reason.reason ?? undefined}>
                      {reason.reason ?? "Unknown error"}
                      {reason.code ? ` (${reason.code})` : ""}
                    </span>
                    <span className="tabular-nums">{number(reason.count)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="min-w-0 rounded-lg border px-3 py-2.5">
            <p className="flex items-baseline justify-between text-sm">
              <span className="font-medium">Skipped</span>
              <span className="font-semibold tabular-nums" data-testid="funnel-skipped">
                {number(funnel.skipped)}
              </span>
            </p>
            <p className="mt-1 text-xs text-muted-foreground">Not sent on purpose: opted out since launch, cancelled, or left out.</p>
          </div>
        </div>

        <Pace progress={progress} />
      </CardContent>
    </Card>
  );
}

function Pace({ progress }: { progress: CampaignProgress }) {
  const sending = progress.status === "sending";
  return (
    <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground">
      {sending && (
        <p className="flex items-center gap-1.5">
          <Gauge className="size-4" aria-hidden /> Current rate:{" "}
          <span className="font-medium text-foreground tabular-nums" data-testid="current-rate">
            {progress.ratePerSecond === null ? "—" : `${number(Math.round(progress.ratePerSecond * 10) / 10)} / s`}
          </span>
        </p>
      )}
      {sending && progress.estimatedFinishAt && (
        <p className="flex items-center gap-1.5">
          <Clock className="size-4" aria-hidden /> Estimated finish: <LocalTime value={progress.estimatedFinishAt} />
        </p>
      )}
    </div>
  );
}
