import Link from "next/link";
import { STATUS_LABELS } from "@/lib/logs/format";
import { LOG_STATUSES, type LogStatus, type StatusCounts } from "@/lib/logs/status";
import { cn } from "@/lib/utils";

const accents: Record<LogStatus, string> = {
  queued: "bg-muted-foreground/40",
  sent: "bg-sky-500",
  delivered: "bg-success",
  read: "bg-primary",
  failed: "bg-destructive",
  skipped: "bg-warning",
};

/** Messages per status under the current filters; each tile filters the table to its status. */
export function StatusCountTiles({
  counts,
  hrefs,
  active,
}: {
  counts: StatusCounts;
  hrefs: Record<LogStatus, string>;
  active: LogStatus[];
}) {
  return (
    <ul aria-label="Messages by status" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
      {LOG_STATUSES.map((status) => {
        const selected = active.length === 1 && active[0] === status;
        return (
          <li key={status}>
            <Link
              href={hrefs[status]}
              aria-current={selected ? "true" : undefined}
              aria-label={`${STATUS_LABELS[status]}: ${counts[status].toLocaleString("en-US")} — show only ${STATUS_LABELS[status].toLowerCase()} messages`}
              className={cn(
                "flex flex-col gap-1 rounded-xl border bg-card px-4 py-3 shadow-xs transition-colors hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none",
                selected && "border-primary/50 bg-accent",
              )}
            >
              <span className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
                <span aria-hidden className={cn("size-2 rounded-full", accents[status])} />
                {STATUS_LABELS[status]}
              </span>
              <span className="text-2xl font-semibold tabular-nums" data-testid={`count-${status}`}>
                {counts[status].toLocaleString("en-US")}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
