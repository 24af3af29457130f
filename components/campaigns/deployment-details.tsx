import { Gauge, Send, Timer } from "lucide-react";
import Link from "next/link";
import type { DeploymentDetails } from "@/lib/campaigns/deployment";
import { CommandBlock } from "./command-block";
import { CopyButton } from "./copy-button";

export function SendingLimits({ limits }: { limits: DeploymentDetails["limits"] }) {
  const items = [
    { icon: Send, label: "Sender throughput", value: `${limits.senderThroughputPerSecond} messages / second`, hint: "How fast WhatsApp accepts messages from your number." },
    { icon: Gauge, label: "Daily messaging tier", value: limits.messagingTier, hint: "New customers you can start conversations with per 24 hours." },
    { icon: Timer, label: "Trigger request limit", value: `${limits.triggerRequestsPerMinute.toLocaleString("en-US")} requests / minute`, hint: "Calls to this campaign's webhook; more get HTTP 429." },
  ];
  return (
    <dl className="grid min-w-0 gap-3 sm:grid-cols-3">
      {items.map(({ icon: Icon, label, value, hint }) => (
        <div key={label} className="rounded-lg border bg-muted/40 p-3">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
            <Icon className="size-3.5" aria-hidden />
            {label}
          </dt>
          <dd className="mt-1 text-sm font-semibold">{value}</dd>
          <dd className="mt-0.5 text-xs text-muted-foreground">{hint}</dd>
        </div>
      ))}
    </dl>
  );
}

export function WebhookUrls({ urls }: { urls: DeploymentDetails["webhookUrls"] }) {
  const rows = [
    { label: "Trigger URL", value: urls.trigger, hint: "Use this in your shop, CRM or Zapier." },
    { label: "Short URL", value: urls.outbound, hint: "Same webhook, shorter address." },
  ];
  return (
    <div className="grid min-w-0 gap-3">
      {rows.map((row) => (
        <div key={row.label} className="grid min-w-0 gap-1">
          <p className="text-xs font-medium text-muted-foreground">
            {row.label} <span className="font-normal">· POST · {row.hint}</span>
          </p>
          <div className="flex min-w-0 items-start gap-2">
            <code className="min-w-0 flex-1 rounded-md border break-all bg-muted/50 px-2.5 py-1.5 font-mono text-xs" data-testid={`webhook-${row.label === "Trigger URL" ? "trigger" : "outbound"}`}>
              {row.value}
            </code>
            <CopyButton value={row.value} label={`Copy ${row.label.toLowerCase()}`} />
          </div>
        </div>
      ))}
    </div>
  );
}

export function CurlExample({ curl }: { curl: string }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <CommandBlock
        intro={
          <>
            Try it: replace <code className="rounded bg-muted px-1 font-mono">&lt;API_KEY&gt;</code> with a key from Settings → API Keys.{" "}
            <Link href="/docs/api#op-triggerCampaign" className="font-medium text-primary underline underline-offset-4">
              Trigger endpoint reference
            </Link>
          </>
        }
        command={curl}
        copyLabel="Copy curl command"
        regionLabel="curl example"
        testId="curl-example"
      />
    </div>
  );
}
