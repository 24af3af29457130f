"use client";

import Link from "next/link";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { formatShortTime, LocalTime, useViewerClock } from "@/components/ui/local-time";
import { TableCell, TableRow } from "@/components/ui/table";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { cn } from "@/lib/utils";
import { MessageDetailsRow, MessageRowLead } from "./message-parts";
import { LogStatusBadge, RetryingBadge } from "./status-badge";

/** A queued message that already failed once and waits for its next attempt. */
export function isRetrying(row: PublicMessage): boolean {
  return row.status === "queued" && row.attempts > 0 && row.error !== null;
}

/**
 * The attempt a retrying message is on: the next one while it waits (`nextAttemptAt` set), or the
 * one in flight right now (a claimed message has already counted it and has no next time).
 */
function currentAttempt(row: PublicMessage, maxAttempts: number): number {
  return Math.min(row.nextAttemptAt ? row.attempts + 1 : row.attempts, maxAttempts);
}

/** `Attempt 2 of 6 · <reason> · next try at 14:03:09`: what a retrying message waits for. */
function RetryDetails({ row, maxAttempts, local }: { row: PublicMessage; maxAttempts: number; local: boolean }) {
  return (
    <>
      Attempt {currentAttempt(row, maxAttempts)} of {maxAttempts} · {row.error?.reason} ·{" "}
      {row.nextAttemptAt ? (
        <>
          next try at <time dateTime={row.nextAttemptAt}>{formatShortTime(row.nextAttemptAt, local)}</time>
        </>
      ) : (
        "trying now"
      )}
    </>
  );
}

function reasonTitle(row: PublicMessage, retrying: boolean, maxAttempts: number): string | undefined {
  if (!row.error) return undefined;
  const code = row.error.code ? ` (${row.error.code})` : "";
  if (retrying) return `Attempt ${currentAttempt(row, maxAttempts)} of ${maxAttempts} · ${row.error.reason}${code}`;
  return `${row.error.reason}${code}`;
}

export function MessageRow({
  row,
  fresh,
  campaignName,
  showCampaign,
  maxAttempts,
}: {
  row: PublicMessage;
  fresh: boolean;
  campaignName?: string;
  showCampaign: boolean;
  maxAttempts: number;
}) {
  const [open, setOpen] = React.useState(false);
  const local = useViewerClock();
  const detailsId = `message-${row.id}`;
  const columns = showCampaign ? 8 : 7;
  const retrying = isRetrying(row);
  const skipped = row.status === "skipped";
  return (
    <>
      <TableRow data-message-id={row.id} className={cn("align-top", fresh && "bg-primary/5", open && "border-b-0")}>
        <MessageRowLead
          open={open}
          onToggle={() => setOpen((value) => !value)}
          detailsId={detailsId}
          toggleLabel={`full message to ${row.phone}`}
          createdAt={row.createdAt}
          direction="outbound"
        />
        {showCampaign && (
          <TableCell className="max-w-32 truncate">
            {row.campaignId ? (
              <Link href={`/campaigns/${row.campaignId}/logs`} title={campaignName} className="hover:underline">
                {campaignName ?? row.campaignId}
              </Link>
            ) : (
              <span className="text-muted-foreground">Conversation reply</span>
            )}
          </TableCell>
        )}
        <TableCell className="font-mono text-xs">{row.phone}</TableCell>
        <TableCell className="max-w-[12rem] truncate 2xl:max-w-[18rem]" title={row.text}>
          {row.text}
        </TableCell>
        <TableCell>
          <span className="flex flex-wrap items-center gap-1">
            {retrying ? <RetryingBadge /> : <LogStatusBadge status={row.status} />}
            {row.source === "test" && (
              <Badge variant="outline" title="A test send from the campaign builder">
                Test
              </Badge>
            )}
          </span>
        </TableCell>
        <TableCell
          className={cn("max-w-[22rem] min-w-[13rem] whitespace-normal", retrying || skipped ? "text-muted-foreground" : "text-destructive")}
          title={reasonTitle(row, retrying, maxAttempts)}
        >
          {row.error ? (
            <span className="line-clamp-2 break-words">
              {retrying ? (
                <RetryDetails row={row} maxAttempts={maxAttempts} local={local} />
              ) : (
                <>
                  {skipped && <span className="font-medium text-foreground">Not sent: </span>}
                  {row.error.reason}
                  {row.error.code && <span className="ml-1.5 text-xs text-muted-foreground">({row.error.code})</span>}
                </>
              )}
            </span>
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </TableCell>
      </TableRow>
      {open && (
        <MessageDetailsRow id={detailsId} columns={columns}>
          <MessageDetails row={row} retrying={retrying} maxAttempts={maxAttempts} local={local} />
        </MessageDetailsRow>
      )}
    </>
  );
}

export function MessageDetails({ row, retrying, maxAttempts, local }: { row: PublicMessage; retrying: boolean; maxAttempts: number; local: boolean }) {
  const skipped = row.status === "skipped";
  const entries: [string, string | null][] = [
    ["Created", row.createdAt],
    ["Sent", row.sentAt],
    ["Delivered", row.deliveredAt],
    ["Read", row.readAt],
    ["Replied", row.repliedAt],
    ["Failed", row.failedAt],
    ["Next try", retrying ? row.nextAttemptAt : null],
  ];
  const timeline = entries.filter((entry): entry is [string, string] => entry[1] !== null);
  return (
    <dl className="grid gap-3 py-1 text-sm sm:grid-cols-[9rem_1fr]">
      <dt className="text-muted-foreground">Message</dt>
      <dd className="whitespace-pre-wrap break-words">{row.text}</dd>
      <dt className="text-muted-foreground">Template</dt>
      <dd>
        {row.template ? (
          <>
            {row.template.name} <span className="text-muted-foreground">({row.template.language})</span>
          </>
        ) : (
          "None: a free-form reply in a conversation"
        )}
        {row.source === "test" && <span className="text-muted-foreground"> · test send</span>}
      </dd>
      <dt className="text-muted-foreground">Message id</dt>
      <dd className="font-mono text-xs break-all">{row.id}</dd>
      {row.journeyStep && (
        <>
          <dt className="text-muted-foreground">Journey step</dt>
          <dd>
            <span className="font-mono text-xs">{row.journeyStep.stepId}</span>
            <span className="text-muted-foreground"> · run </span>
            <span className="font-mono text-xs break-all">{row.journeyStep.runId}</span>
          </dd>
        </>
      )}
      {row.error && (
        <>
          <dt className="text-muted-foreground">{skipped ? "Not sent because" : retrying ? "Last attempt failed" : "Error"}</dt>
          <dd className={cn("break-words", !skipped && !retrying && "text-destructive")}>
            {row.error.reason}
            {row.error.code ? ` (code ${row.error.code})` : ""}
            {retrying && ` · attempt ${currentAttempt(row, maxAttempts)} of ${maxAttempts} ${row.nextAttemptAt ? "is next" : "is being sent"}`}
          </dd>
        </>
      )}
      <dt className="text-muted-foreground">Timeline</dt>
      <dd className="flex flex-wrap gap-x-3 gap-y-1 tabular-nums">
        {timeline.map(([label, at]) => (
          <span key={label}>
            {label} <LocalTime iso={at} />
          </span>
        ))}
        {!local && <span className="text-muted-foreground">(UTC)</span>}
      </dd>
    </dl>
  );
}
