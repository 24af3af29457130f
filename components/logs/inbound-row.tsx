"use client";

import { ArrowDownLeft, ChevronDown, ChevronRight } from "lucide-react";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TableCell, TableRow } from "@/components/ui/table";
import { inboundSummary, type PublicInboundMessage } from "@/lib/inbound/public";
import { cn } from "@/lib/utils";

const KIND_LABELS: Record<PublicInboundMessage["kind"], string> = {
  text: "Text",
  button: "Button",
  interactive: "Reply",
  media: "Media",
  location: "Location",
  reaction: "Reaction",
  unsupported: "Other",
};

/** A reply the contact sent to one of the campaign's messages, beside the sent ones. */
export function InboundRow({ row, fresh, showCampaign }: { row: PublicInboundMessage; fresh: boolean; showCampaign: boolean }) {
  const [open, setOpen] = React.useState(false);
  const detailsId = `message-${row.id}`;
  const columns = showCampaign ? 8 : 7;
  const summary = inboundSummary(row);
  return (
    <>
      <TableRow data-message-id={row.id} data-direction="inbound" className={cn("align-top bg-muted/20", fresh && "bg-primary/5", open && "border-b-0")}>
        <TableCell className="pr-0">
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`${open ? "Hide" : "Show"} full reply from ${row.phone}`}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        </TableCell>
        <TableCell className="text-muted-foreground tabular-nums">
          <LocalTime iso={row.createdAt} />
        </TableCell>
        <TableCell>
          <span className="inline-flex items-center gap-1 text-sm">
            <ArrowDownLeft className="size-4 text-sky-700" aria-hidden />
            Received
          </span>
        </TableCell>
        {showCampaign && <TableCell className="text-muted-foreground">—</TableCell>}
        <TableCell className="font-mono text-xs">{row.phone}</TableCell>
        <TableCell className="max-w-[12rem] truncate 2xl:max-w-[18rem]" title={summary}>
          {summary}
        </TableCell>
        <TableCell>
          <Badge variant="outline">{KIND_LABELS[row.kind]}</Badge>
        </TableCell>
        <TableCell className="text-muted-foreground">—</TableCell>
      </TableRow>
      {open && (
        <TableRow id={detailsId} className="bg-muted/30 hover:bg-muted/30">
          <TableCell />
          <TableCell colSpan={columns - 1} className="whitespace-normal">
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
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
