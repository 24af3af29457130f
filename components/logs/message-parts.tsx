"use client";

// Pieces a message row is built from, shared by the logs table (sent and received rows) and the
// contact's message history.
import { ArrowDownLeft, ArrowUpRight, ChevronDown, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TableCell, TableRow } from "@/components/ui/table";
import type { PublicInboundMessage } from "@/lib/inbound/public";

const INBOUND_KIND_LABELS: Record<PublicInboundMessage["kind"], string> = {
  text: "Text",
  button: "Button",
  interactive: "Reply",
  media: "Media",
  location: "Location",
  reaction: "Reaction",
  unsupported: "Other",
};

/** What kind of message the contact sent (text, button, media…), as a badge. */
export function InboundKindBadge({ kind }: { kind: PublicInboundMessage["kind"] }) {
  return <Badge variant="outline">{INBOUND_KIND_LABELS[kind]}</Badge>;
}

/**
 * `↗ Outgoing` or `↙ Incoming`: which way a message went. Not "Sent": a skipped, failed or queued
 * message was not, and its status says so beside it.
 */
export function DirectionLabel({ direction }: { direction: "outbound" | "inbound" }) {
  return (
    <span className="inline-flex items-center gap-1 text-sm">
      {direction === "inbound" ? (
        <>
          <ArrowDownLeft className="size-4 text-sky-700" aria-hidden />
          Incoming
        </>
      ) : (
        <>
          <ArrowUpRight className="size-4 text-muted-foreground" aria-hidden />
          Outgoing
        </>
      )}
    </span>
  );
}

/** The first cells of an expandable log row: the show/hide toggle, the time and the direction. */
export function MessageRowLead({
  open,
  onToggle,
  detailsId,
  toggleLabel,
  createdAt,
  direction,
}: {
  open: boolean;
  onToggle: () => void;
  detailsId: string;
  /** What the toggle shows, after "Show"/"Hide": `full message to +44…`. */
  toggleLabel: string;
  createdAt: string;
  direction: "outbound" | "inbound";
}) {
  return (
    <>
      <TableCell className="pr-0">
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={`${open ? "Hide" : "Show"} ${toggleLabel}`}
          onClick={onToggle}
        >
          {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
        </Button>
      </TableCell>
      <TableCell className="text-muted-foreground tabular-nums">
        <LocalTime iso={createdAt} />
      </TableCell>
      <TableCell>
        <DirectionLabel direction={direction} />
      </TableCell>
    </>
  );
}

/** The row under an opened log row, across every column but the toggle's. */
export function MessageDetailsRow({ id, columns, children }: { id: string; columns: number; children: ReactNode }) {
  return (
    <TableRow id={id} className="bg-muted/30 hover:bg-muted/30">
      <TableCell />
      <TableCell colSpan={columns - 1} className="whitespace-normal">
        {children}
      </TableCell>
    </TableRow>
  );
}
