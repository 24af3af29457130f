"use client";

import { ChevronDown } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { LocalTime, useViewerClock } from "@/components/ui/local-time";
import { inboundSummary, type PublicInboundMessage } from "@/lib/inbound/public";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { cn } from "@/lib/utils";
import { DirectionLabel, InboundKindBadge } from "./message-parts";
import { isRetrying, MessageDetails } from "./message-row";
import { LogStatusBadge, RetryingBadge } from "./status-badge";

/** Below `md`: each message as a card, its status badge beside the number, the reason under it. */
export function MessageCard({ row, fresh, campaignName, showCampaign, maxAttempts }: { row: PublicMessage; fresh: boolean; campaignName?: string; showCampaign: boolean; maxAttempts: number }) {
  const [open, setOpen] = React.useState(false);
  const local = useViewerClock();
  const retrying = isRetrying(row);
  const skipped = row.status === "skipped";
  const detailsId = `message-card-${row.id}`;
  return (
    <li data-message-id={row.id} className={cn("grid gap-1.5 px-4 py-3", fresh && "bg-primary/5")}>
      <div className="flex items-start justify-between gap-2">
        <span className="font-mono text-xs leading-6 break-all">{row.phone}</span>
        <span className="flex shrink-0 flex-wrap items-center justify-end gap-1">
          {row.source === "test" && <Badge variant="outline">Test</Badge>}
          {retrying ? <RetryingBadge /> : <LogStatusBadge status={row.status} />}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-muted-foreground">
        <DirectionLabel direction="outbound" />
        <span aria-hidden>·</span>
        <LocalTime iso={row.createdAt} />
        <span aria-hidden>·</span>
        <span className="font-mono">{row.template?.name ?? "reply"}</span>
        {showCampaign && (
          <>
            <span aria-hidden>·</span>
            {row.campaignId ? (
              <Link href={`/campaigns/${row.campaignId}/logs`} className="underline-offset-4 hover:underline">
                {campaignName ?? row.campaignId}
              </Link>
            ) : (
              <span>Conversation reply</span>
            )}
          </>
        )}
      </div>
      <p className="line-clamp-2 text-sm break-words">{row.text}</p>
      {row.error && (
        <p className={cn("text-sm break-words", retrying || skipped ? "text-muted-foreground" : "text-destructive")}>
          {skipped && <span className="font-medium text-foreground">Not sent: </span>}
          {row.error.reason}
          {row.error.code && <span className="ml-1 text-xs text-muted-foreground">({row.error.code})</span>}
        </p>
      )}
      <button
        type="button"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex w-fit items-center gap-1 rounded-sm text-xs font-medium text-primary focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none"
      >
        <ChevronDown aria-hidden className={cn("size-3.5 transition-transform", open && "rotate-180")} />
        {open ? "Hide" : "Show"} details<span className="sr-only"> of the message to {row.phone}</span>
      </button>
      {open && (
        <div id={detailsId} className="rounded-lg bg-muted/40 px-3 py-2">
          <MessageDetails row={row} retrying={retrying} maxAttempts={maxAttempts} local={local} />
        </div>
      )}
    </li>
  );
}

/** Below `md`: a reply the contact sent, as a card. */
export function InboundCard({ row, fresh }: { row: PublicInboundMessage; fresh: boolean }) {
  const summary = inboundSummary(row);
  return (
    <li data-message-id={row.id} data-direction="inbound" className={cn("grid gap-1.5 bg-muted/20 px-4 py-3", fresh && "bg-primary/5")}>
      <div className="flex items-start justify-between gap-2">
        <span className="font-mono text-xs leading-6 break-all">{row.phone}</span>
        <InboundKindBadge kind={row.kind} />
      </div>
      <div className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
        <DirectionLabel direction="inbound" />
        <span aria-hidden>·</span>
        <LocalTime iso={row.createdAt} />
      </div>
      <p className="line-clamp-3 text-sm break-words">{summary}</p>
    </li>
  );
}
