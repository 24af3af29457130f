"use client";

import { useRouter } from "next/navigation";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { TimeZoneName } from "@/components/ui/local-time";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requestJson } from "@/lib/http/client";
import type { CampaignMessagesBody } from "@/lib/logs/http";
import type { LogMessage } from "@/lib/logs/query";
import type { LogStatus, StatusCounts } from "@/lib/statuses/messages";
import { FiltersSheet } from "./filters-sheet";
import { InboundRow } from "./inbound-row";
import { InboundCard, MessageCard } from "./message-cards";
import { MessageRow } from "./message-row";
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
  repliedHref,
  repliedActive,
  polling,
  campaignNames,
  filters,
  sheetFilters,
  activeFilters,
  pagination,
  empty,
  maxAttempts,
}: {
  rows: LogMessage[];
  counts: StatusCounts;
  statusHrefs: Record<LogStatus, string>;
  activeStatus: LogStatus[];
  /** The Replied tile: its link and whether it is the current selection. */
  repliedHref: string;
  repliedActive: boolean;
  polling: LivePolling | null;
  /** Workspace-wide view: campaign id → name, shown as a column. */
  campaignNames?: Record<string, string>;
  /** The filter form shown inline from `md` up. */
  filters: React.ReactNode;
  /** The same form for the phone's filters sheet (its own field ids). */
  sheetFilters: React.ReactNode;
  /** How many filters are set (shown on the phone's "Filters" button). */
  activeFilters: number;
  pagination: React.ReactNode;
  empty: React.ReactNode;
  /** Send attempts before a retryable failure becomes final ("attempt 2 of 6"). */
  maxAttempts: number;
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
        if (cursor && shown.some((row) => row.direction === "outbound" && SETTLING.includes(row.status))) {
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
      <StatusCountTiles counts={counts} hrefs={statusHrefs} active={activeStatus} replied={{ href: repliedHref, active: repliedActive }} />
      {/* Both layouts are in the server HTML and CSS picks one (display: none hides the other from
          assistive tech too), so a phone never flashes the wide layout before hydration. */}
      <div className="md:hidden">
        <FiltersSheet activeCount={activeFilters}>{sheetFilters}</FiltersSheet>
      </div>
      <div className="hidden min-w-0 md:block">{filters}</div>
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
        <>
          <div className="hidden min-w-0 rounded-xl border bg-card shadow-xs md:block">
            <Table aria-label="Messages">
              <TableHeader>
                <TableRow>
                  <TableHead className="w-8"><span className="sr-only">Details</span></TableHead>
                  <TableHead>
                    Time (<TimeZoneName />)
                  </TableHead>
                  <TableHead>Direction</TableHead>
                  {campaignNames && <TableHead>Campaign</TableHead>}
                  <TableHead>Phone</TableHead>
                  <TableHead>Message</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Error or reason</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) =>
                  row.direction === "inbound" ? (
                    <InboundRow key={row.id} row={row} fresh={fresh.has(row.id)} showCampaign={Boolean(campaignNames)} />
                  ) : (
                    <MessageRow
                      key={row.id}
                      row={row}
                      fresh={fresh.has(row.id)}
                      campaignName={row.campaignId ? campaignNames?.[row.campaignId] : undefined}
                      showCampaign={Boolean(campaignNames)}
                      maxAttempts={maxAttempts}
                    />
                  ),
                )}
              </TableBody>
            </Table>
          </div>
          <ol aria-label="Messages" className="min-w-0 divide-y rounded-xl border bg-card shadow-xs md:hidden">
            {rows.map((row) =>
              row.direction === "inbound" ? (
                <InboundCard key={row.id} row={row} fresh={fresh.has(row.id)} />
              ) : (
                <MessageCard
                  key={row.id}
                  row={row}
                  fresh={fresh.has(row.id)}
                  campaignName={row.campaignId ? campaignNames?.[row.campaignId] : undefined}
                  showCampaign={Boolean(campaignNames)}
                  maxAttempts={maxAttempts}
                />
              ),
            )}
          </ol>
        </>
      )}
      {pagination}
    </div>
  );
}
