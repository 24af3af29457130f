"use client";

import * as React from "react";
import { LocalTime } from "@/components/ui/local-time";
import { TableCell, TableRow } from "@/components/ui/table";
import { inboundSummary, type PublicInboundMessage } from "@/lib/inbound/public";
import { cn } from "@/lib/utils";
import { InboundKindBadge, MessageDetailsRow, MessageRowLead } from "./message-parts";

/** A reply the contact sent to one of the campaign's messages, beside the sent ones. */
export function InboundRow({ row, fresh, showCampaign }: { row: PublicInboundMessage; fresh: boolean; showCampaign: boolean }) {
  const [open, setOpen] = React.useState(false);
  const detailsId = `message-${row.id}`;
  const columns = showCampaign ? 8 : 7;
  const summary = inboundSummary(row);
  return (
    <>
      <TableRow data-message-id={row.id} data-direction="inbound" className={cn("align-top bg-muted/20", fresh && "bg-primary/5", open && "border-b-0")}>
        <MessageRowLead
          open={open}
          onToggle={() => setOpen((value) => !value)}
          detailsId={detailsId}
          toggleLabel={`full reply from ${row.phone}`}
          createdAt={row.createdAt}
          direction="inbound"
        />
        {showCampaign && <TableCell className="text-muted-foreground">—</TableCell>}
        <TableCell className="font-mono text-xs">{row.phone}</TableCell>
        <TableCell className="max-w-[12rem] truncate 2xl:max-w-[18rem]" title={summary}>
          {summary}
        </TableCell>
        <TableCell>
          <InboundKindBadge kind={row.kind} />
        </TableCell>
        <TableCell className="text-muted-foreground">—</TableCell>
      </TableRow>
      {open && (
        <MessageDetailsRow id={detailsId} columns={columns}>
          <dl className="grid gap-3 py-1 text-sm sm:grid-cols-[9rem_1fr]">
            <dt className="text-muted-foreground">Reply</dt>
            <dd className="whitespace-pre-wrap break-words">{summary}</dd>
            {row.payload && (
              <>
                <dt className="text-muted-foreground">Payload</dt>
                <dd className="font-mono text-xs break-all">{row.payload}</dd>
              </>
            )}
            {row.media && (
              <>
                <dt className="text-muted-foreground">Media</dt>
                <dd className="break-all">
                  {row.media.kind} · {row.media.mimeType ?? "unknown type"} · id {row.media.id}
                  {row.media.filename ? ` · ${row.media.filename}` : ""}
                </dd>
              </>
            )}
            {row.location && (
              <>
                <dt className="text-muted-foreground">Location</dt>
                <dd>
                  {row.location.latitude}, {row.location.longitude}
                </dd>
              </>
            )}
            <dt className="text-muted-foreground">Answers</dt>
            <dd className="font-mono text-xs break-all">{row.replyToMessageId ?? "—"}</dd>
            <dt className="text-muted-foreground">Received</dt>
            <dd className="tabular-nums">
              <LocalTime iso={row.receivedAt} />
            </dd>
          </dl>
        </MessageDetailsRow>
      )}
    </>
  );
}
