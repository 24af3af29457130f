import { ArrowLeft, ChevronRight, Inbox } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { Input } from "@/components/ui/input";
import { SOURCE_KIND_LABELS } from "@/lib/sources/kinds";
import type { RequestOutcomeFilter, TriggerRequestPage, TriggerRequestRecord } from "@/lib/trigger/requests-query";
import { cn } from "@/lib/utils";

const FILTERS: { value: RequestOutcomeFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "accepted", label: "Accepted" },
  { value: "ignored", label: "Ignored" },
  { value: "rejected", label: "Rejected" },
];

const EMPTY_TITLES: Record<RequestOutcomeFilter, string> = {
  all: "No requests yet",
  accepted: "No accepted requests",
  ignored: "No ignored requests",
  rejected: "No rejected requests",
};

/** A campaign's Requests tab: every call to its webhook in the last 7 days, newest first. */
export function RequestsView({
  campaign,
  page,
  outcome,
  topic = "",
  paged,
}: {
  campaign: { id: string; name: string };
  page: TriggerRequestPage;
  outcome: RequestOutcomeFilter;
  /** Only calls with this source topic (`?topic=`); empty for every call. */
  topic?: string;
  /** This is not the newest page. */
  paged: boolean;
}) {
  const base = `/campaigns/${campaign.id}/requests`;
  const withOutcome = (value: RequestOutcomeFilter, extra: Record<string, string> = {}, withTopic = topic) => {
    const params = new URLSearchParams({ ...(value === "all" ? {} : { outcome: value }), ...(withTopic ? { topic: withTopic } : {}), ...extra });
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
      <form method="get" action={base} role="search" aria-label="Filter requests by topic" className="mb-4 flex flex-wrap items-end gap-2">
        {outcome !== "all" && <input type="hidden" name="outcome" value={outcome} />}
        <div className="grid gap-1">
          <label htmlFor="requests-topic" className="text-xs font-medium text-muted-foreground">
            Topic
          </label>
          <Input id="requests-topic" name="topic" defaultValue={topic} placeholder="orders/create" className="w-64 font-mono" />
        </div>
        <Button type="submit" variant="outline">
          Filter
        </Button>
        {topic && (
          <Button asChild variant="ghost">
            <Link href={withOutcome(outcome, {}, "")}>Clear topic</Link>
          </Button>
        )}
      </form>
      {page.data.length === 0 ? (
        <EmptyState
          icon={<Inbox />}
          title={topic ? `${EMPTY_TITLES[outcome]} with topic ${topic}` : EMPTY_TITLES[outcome]}
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
  if (record.outcome === "ignored") return `Ignored: ${record.ignoredReason ?? "this campaign does not take the topic"}; nothing sent`;
  if (record.error) return record.error.errors?.[0] ? `${record.error.errors[0].path || "body"}: ${record.error.errors[0].message}` : record.error.detail;
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
  const accepted = record.outcome === "accepted";
  const ignored = record.outcome === "ignored";
  const source = record.source && record.source.kind !== "api_key" ? record.source : null;
  return (
    <li className="min-w-0 rounded-lg border bg-card">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 text-sm [&::-webkit-details-marker]:hidden">
          <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden />
          <Badge variant={accepted ? "success" : ignored ? "secondary" : "destructive"} className="font-mono">
            {record.status}
          </Badge>
          <LocalTime iso={record.receivedAt} className="shrink-0 text-muted-foreground tabular-nums" />
          <span className="shrink-0 text-muted-foreground">{source ? SOURCE_KIND_LABELS[source.kind] : (record.key?.name ?? "No key")}</span>
          {source?.topic && (
            <Badge variant="outline" className="font-mono" data-testid="request-topic">
              {source.topic}
            </Badge>
          )}
          <span className={cn("min-w-0 basis-full truncate sm:basis-0 sm:flex-1", accepted || ignored ? "text-foreground" : "text-destructive")} title={summary(record)}>
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
          {source?.deliveryId && (
            <p className="text-xs text-muted-foreground">
              Delivery id <code className="font-mono" data-testid="request-delivery-id">{source.deliveryId}</code>
              {" "}· the same id again gets this answer again and sends nothing
            </p>
          )}
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
