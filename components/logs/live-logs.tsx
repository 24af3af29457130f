"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requestJson } from "@/lib/http/client";
import { formatLogTime } from "@/lib/logs/format";
import type { CampaignMessagesBody } from "@/lib/logs/http";
import type { LogMessage } from "@/lib/logs/query";
import type { LogStatus, StatusCounts } from "@/lib/logs/status";
import { cn } from "@/lib/utils";
import { LogStatusBadge } from "./status-badge";
import { StatusCountTiles } from "./status-counts";

const POLL_INTERVAL_MS = 5000;
const POLL_LIMIT = 100;
/** Statuses that can still change; rows in them are refreshed while the page is open. */
const SETTLING: LogStatus[] = ["queued", "sent", "delivered"];

export interface LivePolling {
  /** The campaign's messages list, `/api/v1/campaigns/{id}/messages` (same-origin: the session cookie signs it in). */
  url: string;
  /** The current filters as a query string (no cursor). */
  filterQuery: string;
  /** Reads messages newer than the newest shown; null when nothing is shown yet. */
  prevCursor: string | null;
}

/**
 * Counts and the messages table (the page keys it by filters, cursor and newest row, so a server
 * re-render starts it afresh). On the first page it polls for messages newer than the newest
 * shown (keyset `prevCursor`, never a full reload) and refreshes the status of rows still settling.
 */
export function LiveLogs({
  rows: initialRows,
  counts: initialCounts,
  statusHrefs,
  activeStatus,
  polling,
  campaignNames,
  filters,
  pagination,
  empty,
}: {
  rows: LogMessage[];
  counts: StatusCounts;
  statusHrefs: Record<LogStatus, string>;
  activeStatus: LogStatus[];
  polling: LivePolling | null;
  /** Workspace-wide view: campaign id → name, shown as a column. */
  campaignNames?: Record<string, string>;
  filters: React.ReactNode;
  pagination: React.ReactNode;
  empty: React.ReactNode;
}) {
  const router = useRouter();
  const [rows, setRows] = React.useState(initialRows);
  const [counts, setCounts] = React.useState(initialCounts);
  const [fresh, setFresh] = React.useState<Set<string>>(new Set());
  const [overflow, setOverflow] = React.useState(false);
  const [announcement, setAnnouncement] = React.useState("");
  const cursorRef = React.useRef(polling?.prevCursor ?? null);
  const rowsRef = React.useRef(rows);
  React.useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);

  React.useEffect(() => {
    if (!polling) return;
    const controller = new AbortController();
    let busy = false;

    async function poll() {
      if (busy || document.hidden || !polling) return;
      busy = true;
      try {
        const base = polling.filterQuery ? `${polling.url}?${polling.filterQuery}&` : `${polling.url}?`;
        const cursor = cursorRef.current;
        const newer = await requestJson<CampaignMessagesBody>(
          `${base}limit=${POLL_LIMIT}&include=counts${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          { signal: controller.signal },
        );
        if (!newer.ok || controller.signal.aborted) return;
        const arrivals = newer.data.data;
        if (newer.data.counts) setCounts(newer.data.counts);
        if (newer.data.prevCursor) cursorRef.current = newer.data.prevCursor;
        if (cursor && newer.data.hasNewer) setOverflow(true);
        if (arrivals.length) {
          setRows((current) => {
            const known = new Set(current.map((row) => row.id));
            const added = arrivals.filter((row) => !known.has(row.id));
            return cursor ? [...added, ...current] : arrivals;
          });
          setFresh(new Set(arrivals.map((row) => row.id)));
          setAnnouncement(`${arrivals.length} new ${arrivals.length === 1 ? "message" : "messages"}`);
        }

        // Rows already on screen move through sent → delivered → read (or fail): refresh them.
        const shown = rowsRef.current;
        if (cursor && shown.some((row) => SETTLING.includes(row.status))) {
          const limit = Math.min(shown.length + arrivals.length, POLL_LIMIT);
          const latest = await requestJson<CampaignMessagesBody>(`${base}limit=${limit}`, { signal: controller.signal });
          if (!latest.ok || controller.signal.aborted) return;
          const byId = new Map(latest.data.data.map((row) => [row.id, row]));
          setRows((current) => current.map((row) => byId.get(row.id) ?? row));
        }
      } finally {
        busy = false;
      }
    }

    const timer = window.setInterval(() => void poll(), POLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [polling]);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <StatusCountTiles counts={counts} hrefs={statusHrefs} active={activeStatus} />
      {filters}
      <p aria-live="polite" className="sr-only">{announcement}</p>
      {overflow && (
        <div role="status" className="flex items-center justify-between gap-3 rounded-lg border border-primary/30 bg-accent px-4 py-2 text-sm">
          More new messages arrived than fit on this page.
          <Button size="sm" variant="outline" onClick={() => router.refresh()}>
            Show newest
          </Button>
        </div>
      )}
      {rows.length === 0 ? (
        empty
      ) : (
        <div className="min-w-0 rounded-xl border bg-card shadow-xs">
          <Table aria-label="Messages">
            <TableHeader>
              <TableRow>
                <TableHead className="w-8"><span className="sr-only">Details</span></TableHead>
                <TableHead>Time (UTC)</TableHead>
                {campaignNames && <TableHead>Campaign</TableHead>}
                <TableHead>Phone</TableHead>
                <TableHead>Message</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Error or reason</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <MessageRow key={row.id} row={row} fresh={fresh.has(row.id)} campaignName={campaignNames?.[row.campaignId]} showCampaign={Boolean(campaignNames)} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {pagination}
    </div>
  );
}

function MessageRow({ row, fresh, campaignName, showCampaign }: { row: LogMessage; fresh: boolean; campaignName?: string; showCampaign: boolean }) {
  const [open, setOpen] = React.useState(false);
  const detailsId = `message-${row.id}`;
  const columns = showCampaign ? 7 : 6;
  return (
    <>
      <TableRow data-message-id={row.id} className={cn(fresh && "bg-primary/5", open && "border-b-0")}>
        <TableCell className="pr-0">
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`${open ? "Hide" : "Show"} full message to ${row.phone}`}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        </TableCell>
        <TableCell className="text-muted-foreground tabular-nums">
          <time dateTime={row.createdAt} title={row.createdAt}>{formatLogTime(row.createdAt)}</time>
        </TableCell>
        {showCampaign && (
          <TableCell className="max-w-40 truncate">
            <Link href={`/campaigns/${row.campaignId}/logs`} className="hover:underline">{campaignName ?? row.campaignId}</Link>
          </TableCell>
        )}
        <TableCell className="font-mono text-xs">{row.phone}</TableCell>
        <TableCell className="max-w-[20rem] truncate" title={row.text}>{row.text}</TableCell>
        <TableCell><LogStatusBadge status={row.status} /></TableCell>
        <TableCell className={cn("max-w-[16rem] truncate", row.status === "skipped" ? "text-muted-foreground" : "text-destructive")} title={row.error?.reason}>
          {row.error ? (
            <>
              {row.error.reason}
              {row.error.code && <span className="ml-1.5 text-xs text-muted-foreground">({row.error.code})</span>}
            </>
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </TableCell>
      </TableRow>
      {open && (
        <TableRow id={detailsId} className="bg-muted/30 hover:bg-muted/30">
          <TableCell />
          <TableCell colSpan={columns - 1} className="whitespace-normal">
            <dl className="grid gap-3 py-1 text-sm sm:grid-cols-[9rem_1fr]">
              <dt className="text-muted-foreground">Message</dt>
              <dd className="whitespace-pre-wrap break-words">{row.text}</dd>
              <dt className="text-muted-foreground">Template</dt>
              <dd>{row.template.name} <span className="text-muted-foreground">({row.template.language})</span></dd>
              <dt className="text-muted-foreground">Message id</dt>
              <dd className="font-mono text-xs">{row.id}</dd>
              {row.error && (
                <>
                  <dt className="text-muted-foreground">{row.status === "skipped" ? "Not sent because" : "Error"}</dt>
                  <dd className={row.status === "skipped" ? undefined : "text-destructive"}>{row.error.reason}{row.error.code ? ` (code ${row.error.code})` : ""}</dd>
                </>
              )}
              <dt className="text-muted-foreground">Timeline (UTC)</dt>
              <dd className="tabular-nums">
                {[
                  ["Created", row.createdAt],
                  ["Sent", row.sentAt],
                  ["Delivered", row.deliveredAt],
                  ["Read", row.readAt],
                  ["Failed", row.failedAt],
                ]
                  .filter((entry): entry is [string, string] => Boolean(entry[1]))
                  .map(([label, at]) => `${label} ${formatLogTime(at)}`)
                  .join(" · ")}
              </dd>
            </dl>
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
