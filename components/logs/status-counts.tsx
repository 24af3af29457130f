import Link from "next/link";
import { STATUS_LABELS } from "@/lib/logs/format";
import { funnelStepOf, LOG_STATUSES, type LogStatus, type StatusCounts } from "@/lib/statuses/messages";
import { cn } from "@/lib/utils";

const accents: Record<LogStatus, string> = {
  queued: "bg-muted-foreground/40",
  sent: "bg-sky-500",
  delivered: "bg-success",
  read: "bg-primary",
  failed: "bg-destructive",
  skipped: "bg-warning",
};

/** What a tile's number includes besides its own status (the funnel is cumulative). */
const includes: Partial<Record<LogStatus, string>> = {
  sent: "incl. delivered and read",
  delivered: "incl. read",
};

/** What a tile's link shows, for its accessible name. */
const shows: Record<LogStatus, string> = {
  queued: "show only queued messages",
  sent: "show messages sent, delivered or read",
  delivered: "show messages delivered or read",
  read: "show only read messages",
  failed: "show only failed messages",
  skipped: "show only skipped messages",
};

/**
 * The campaign funnel under the current filters (the same numbers as the campaigns list and the
 * campaign page); each tile lists the messages it counts.
 */
const tileClass =
  "flex w-full min-w-0 flex-col gap-1 rounded-xl border bg-card px-3 py-2 shadow-xs sm:px-4 sm:py-3 transition-colors hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none";

export function StatusCountTiles({
  counts,
  hrefs,
  active,
  replied,
}: {
  counts: StatusCounts;
  hrefs: Record<LogStatus, string>;
  active: LogStatus[];
  /** The Replied tile (beside the funnel): its link and whether it is selected. */
  replied: { href: string; active: boolean };
}) {
  const activeStep = funnelStepOf(active);
  return (
    <div className="grid gap-2">
      <ul aria-label="Messages by status" className="grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3 lg:grid-cols-7">
        {LOG_STATUSES.map((status) => {
          const selected = activeStep === status;
          return (
            <li key={status} className="flex">
              <Link href={hrefs[status]} aria-current={selected ? "true" : undefined} className={cn(tileClass, selected && "border-primary/50 bg-accent")}>
                <span className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
                  <span aria-hidden className={cn("size-2 rounded-full", accents[status])} />
                  {STATUS_LABELS[status]}
                </span>
                <span className="text-xl font-semibold tabular-nums sm:text-2xl" data-testid={`count-${status}`}>
                  {counts[status].toLocaleString("en-US")}
                </span>
                {includes[status] && (
                  <span aria-hidden className="hidden text-xs text-muted-foreground sm:block">
                    {includes[status]}
                  </span>
                )}
                <span className="sr-only"> — {shows[status]}</span>
              </Link>
            </li>
          );
        })}
        <li className="flex">
          <Link href={replied.href} aria-current={replied.active ? "true" : undefined} className={cn(tileClass, replied.active && "border-primary/50 bg-accent")}>
            <span className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
              <span aria-hidden className="size-2 rounded-full bg-violet-500" />
              Replied
            </span>
            <span className="text-xl font-semibold tabular-nums sm:text-2xl" data-testid="count-replied">
              {counts.replied.toLocaleString("en-US")}
            </span>
            <span aria-hidden className="hidden text-xs text-muted-foreground sm:block">
              the contact answered
            </span>
            <span className="sr-only"> — show messages the contact replied to</span>
          </Link>
        </li>
      </ul>
      <p className="text-xs text-muted-foreground">
        Counts are cumulative: a read message was also sent and delivered. Replied counts messages the contact answered, whatever their receipts.
        {counts.tests > 0 && ` ${counts.tests.toLocaleString("en-US")} test send${counts.tests === 1 ? " is" : "s are"} listed but not counted.`}
      </p>
    </div>
  );
}
