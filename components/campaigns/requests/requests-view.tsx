import { ArrowLeft, ChevronRight, Inbox } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import type { RequestOutcomeFilter, TriggerRequestPage, TriggerRequestRecord } from "@/lib/trigger/requests-query";
import { cn } from "@/lib/utils";

const FILTERS: { value: RequestOutcomeFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "accepted", label: "Accepted" },
  { value: "rejected", label: "Rejected" },
  { value: "ignored", label: "Ignored" },
];

/** A campaign's Requests tab: every call to its webhook in the last 7 days, newest first. */
export function RequestsView({
  campaign,
  page,
  outcome,
  paged,
}: {
  campaign: { id: string; name: string };
  page: TriggerRequestPage;
  outcome: RequestOutcomeFilter;
  /** This is not the newest page. */
  paged: boolean;
}) {
  const base = `/campaigns/${campaign.id}/requests`;
  const withOutcome = (value: RequestOutcomeFilter, extra: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...(value === "all" ? {} : { outcome: value }), ...extra });
    const query = params.toString();
    return query ? `${base}?${query}` : base;
  };
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title={`${campaign.name} · Requests`}
        description="Every call to this campaign's webhook in the last 7 days, accepted or rejected, with the answer the caller got and the body it sent."
        actions={
          <Button asChild variant="ghost">
            <Link href={`/campaigns/${campaign.id}`}>
              <ArrowLeft aria-hidden />
              Campaign
            </Link>
          </Button>
        }
      />
      <nav aria-label="Filter requests by outcome" className="mb-4 flex flex-wrap gap-1 rounded-lg border bg-muted/40 p-1 sm:w-fit">
        {FILTERS.map((filter) => (
          <Link
            key={filter.value}
            href={withOutcome(filter.value)}
            aria-current={filter.value === outcome ? "page" : undefined}
            className={cn(
              "flex-1 rounded-md px-3 py-1.5 text-center text-sm font-medium text-muted-foreground hover:text-foreground sm:flex-none",
              filter.value === outcome && "bg-background text-foreground shadow-sm",
            )}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      {page.data.length === 0 ? (
        <EmptyState
          icon={<Inbox />}
          title={outcome === "all" ? "No requests yet" : `No ${outcome} requests`}
          description={
            paged
              ? "Nothing older matches."
              : "Calls to this campaign's webhook show up here within a second, with the status the caller got. Requests are kept for 7 days."
          }
        />
      ) : (
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-2" aria-label="Requests">
          {page.data.map((record) => (
            <RequestItem key={record.id} record={record} />
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-wrap justify-between gap-2">
        {paged ? (
          <Button asChild variant="outline" size="sm">
            <Link href={withOutcome(outcome)}>Newest</Link>
          </Button>
        ) : (
          <span />
        )}
        {page.nextCursor && (
          <Button asChild variant="outline" size="sm">
            <Link href={withOutcome(outcome, { cursor: page.nextCursor })}>Older requests</Link>
          </Button>
        )}
      </div>
    </div>
  );
}

function summary(record: TriggerRequestRecord): string {
  if (record.error) return record.error.errors?.[0] ? `${record.error.errors[0].path || "body"}: ${record.error.errors[0].message}` : record.error.detail;
  if (record.ignoredReason) return record.ignoredReason;
  if (record.dryRun) return "Dry run: validated and rendered, nothing sent";
  return `${record.messageCount} ${record.messageCount === 1 ? "message" : "messages"} queued`;
}

function prettyBody(body: string, truncated: boolean): string {
  if (truncated) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function RequestItem({ record }: { record: TriggerRequestRecord }) {
  const accepted = record.outcome !== "rejected";
  const caller = record.key?.name ?? (record.source ? [record.source.kind, record.source.topic].filter(Boolean).join(" · ") : "No key");
  return (
    <li className="min-w-0 rounded-lg border bg-card">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 text-sm [&::-webkit-details-marker]:hidden">
          <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden />
          <Badge variant={record.outcome === "ignored" ? "secondary" : accepted ? "success" : "destructive"} className="font-mono">
            {record.status}
          </Badge>
          <LocalTime iso={record.receivedAt} className="shrink-0 text-muted-foreground tabular-nums" />
          <span className="shrink-0 text-muted-foreground">{caller}</span>
          <span className={cn("min-w-0 basis-full truncate sm:basis-0 sm:flex-1", accepted ? "text-foreground" : "text-destructive")} title={summary(record)}>
            {summary(record)}
          </span>
        </summary>
        <div className="grid gap-3 border-t px-3 py-3 text-sm">
          {record.error && (
            <div className="grid gap-1">
              <p className="font-medium">
                {record.error.title} <span className="font-mono text-xs text-muted-foreground">({record.error.code})</span>
              </p>
              <p className="text-muted-foreground">{record.error.detail}</p>
              {record.error.errors && record.error.errors.length > 0 && (
                <ul className="grid gap-0.5" aria-label="Field errors">
                  {record.error.errors.map((error, index) => (
                    <li key={index} className="text-destructive">
                      <code className="font-mono">{error.path || "body"}</code>: {error.message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="grid gap-1">
            <p className="text-xs font-medium text-muted-foreground">
              Body · {record.bodyBytes.toLocaleString("en-US")} bytes
              {record.bodyTruncated && <Badge variant="warning" className="ml-2">truncated to 8 KiB</Badge>}
            </p>
            <pre tabIndex={0} aria-label="Request body" className="max-h-80 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs break-all whitespace-pre-wrap">
              {record.body ? prettyBody(record.body, record.bodyTruncated) : "(empty)"}
            </pre>
          </div>
          {record.requestId && (
            <p className="text-xs text-muted-foreground">
              Request id <code className="font-mono">{record.requestId}</code>
            </p>
          )}
        </div>
      </details>
    </li>
  );
}
