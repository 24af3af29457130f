import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { funnelTotal, type Funnel, type FunnelDay } from "@/lib/campaigns/funnel";
import { cn } from "@/lib/utils";

const number = (n: number) => n.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

interface Step {
  key: keyof Funnel;
  label: string;
  value: number;
  /** What the percentage is of. */
  of: string;
  share: number;
  bar: string;
}

function funnelSteps(funnel: Funnel): Step[] {
  const total = funnelTotal(funnel);
  const steps: Step[] = [
    { key: "sent", label: "Sent", value: funnel.sent, of: "of all messages", share: percent(funnel.sent, total), bar: "bg-sky-500" },
    { key: "delivered", label: "Delivered", value: funnel.delivered, of: "of sent", share: percent(funnel.delivered, funnel.sent), bar: "bg-success" },
    { key: "read", label: "Read", value: funnel.read, of: "of delivered", share: percent(funnel.read, funnel.delivered), bar: "bg-primary" },
    // Beside the steps, not below read: a reply can come to a message whose read receipt never did.
    { key: "replied", label: "Replied", value: funnel.replied, of: "of sent", share: percent(funnel.replied, funnel.sent), bar: "bg-violet-500" },
    { key: "failed", label: "Failed", value: funnel.failed, of: "of all messages", share: percent(funnel.failed, total), bar: "bg-destructive" },
  ];
  if (funnel.queued > 0) steps.push({ key: "queued", label: "Queued", value: funnel.queued, of: "of all messages", share: percent(funnel.queued, total), bar: "bg-muted-foreground/40" });
  if (funnel.skipped > 0) steps.push({ key: "skipped", label: "Skipped", value: funnel.skipped, of: "of all messages", share: percent(funnel.skipped, total), bar: "bg-warning" });
  return steps;
}

const dayLabel = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "UTC" });
const dayFull = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/**
 * The campaign's delivery funnel (the same numbers as the campaigns list and the logs) and its
 * messages per day over the last week. Bars are drawn with CSS and hidden from assistive
 * technology; the numbers are in text and in a table. A bulk campaign's page shows its live funnel
 * elsewhere (`withFunnel={false}`), so one page never shows two funnels that could disagree.
 */
export function CampaignActivity({ funnel, days, logsHref, withFunnel = true }: { funnel: Funnel; days: FunnelDay[]; logsHref: string; withFunnel?: boolean }) {
  const total = funnelTotal(funnel);
  const steps = funnelSteps(funnel);
  const peak = Math.max(1, ...days.map((d) => d.total));
  return (
    <Card role="region" aria-labelledby="campaign-activity-title">
      <CardHeader>
        <CardTitle id="campaign-activity-title" className="text-base">
          {withFunnel ? "Delivery" : "Activity"}
        </CardTitle>
        <CardDescription>
          {number(total)} message{total === 1 ? "" : "s"}, test sends not counted. A read message was also sent and delivered{withFunnel ? "; replied counts the messages contacts answered" : ""}.{" "}
          <Link href={logsHref} className="text-primary underline underline-offset-4">
            See them in the logs
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent className={cn("grid gap-6", withFunnel && "md:grid-cols-2")}>
        {withFunnel && (
          <section aria-labelledby="funnel-title" className="grid content-start gap-3">
            <h3 id="funnel-title" className="text-sm font-medium">
              Funnel
            </h3>
            <dl className="grid gap-3">
              {steps.map((step) => (
                <div key={step.key} className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-3 gap-y-1 text-sm">
                  <dt className="text-muted-foreground">{step.label}</dt>
                  <dd className="tabular-nums">
                    <span className="font-semibold" data-testid={`funnel-${step.key}`}>
                      {number(step.value)}
                    </span>{" "}
                    <span className="text-xs text-muted-foreground">
                      {step.share}% {step.of}
                    </span>
                  </dd>
                  <dd aria-hidden className="col-span-2 h-2 overflow-hidden rounded-full bg-muted">
                    <div className={cn("h-full rounded-full", step.bar)} style={{ width: `${percent(step.value, total)}%` }} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        )}
        <section aria-labelledby="per-day-title" className="grid content-start gap-3">
          <h3 id="per-day-title" className="text-sm font-medium">
            Messages per day, last 7 days (UTC)
          </h3>
          <div aria-hidden className="flex h-32 items-end gap-2 border-b">
            {days.map((d) => {
              const other = d.total - d.sent - d.failed;
              return (
                <div key={d.day} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1">
                  <span className="text-[10px] text-muted-foreground tabular-nums">{d.total > 0 ? number(d.total) : ""}</span>
                  <div className="flex w-full max-w-8 flex-col-reverse overflow-hidden rounded-t-sm" style={{ height: `${(d.total / peak) * 80}%` }}>
                    <div className="bg-sky-500" style={{ flexGrow: d.sent }} />
                    <div className="bg-destructive" style={{ flexGrow: d.failed }} />
                    <div className="bg-muted-foreground/40" style={{ flexGrow: other }} />
                  </div>
                </div>
              );
            })}
          </div>
          <div aria-hidden className="flex gap-2">
            {days.map((d) => (
              <span key={d.day} className="min-w-0 flex-1 text-center text-[10px] text-muted-foreground">
                {dayLabel.format(new Date(`${d.day}T00:00:00Z`))}
              </span>
            ))}
          </div>
          <p aria-hidden className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <Legend className="bg-sky-500" label="Sent" />
            <Legend className="bg-destructive" label="Failed" />
            <Legend className="bg-muted-foreground/40" label="Queued or skipped" />
          </p>
          <table className="sr-only">
            <caption>Messages per day, last 7 days (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Messages</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{dayFull.format(new Date(`${d.day}T00:00:00Z`))}</th>
                  <td>{d.total}</td>
                  <td>{d.sent}</td>
                  <td>{d.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </CardContent>
    </Card>
  );
}

function Legend({ className, label }: { className: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={cn("size-2 rounded-full", className)} />
      {label}
    </span>
  );
}
