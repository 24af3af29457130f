"use client";

import { Download } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { requestJson, type ClientProblem } from "@/lib/http/client";
import { formatCount, formatDateTime } from "./format";
import type { ContactImport } from "./types";

const POLL_MS = 1000;
const FINISHED = new Set(["completed", "failed"]);

export const IMPORT_STATUS: Record<string, { label: string; variant: "secondary" | "info" | "success" | "destructive" }> = {
  awaiting_file: { label: "Waiting for the file", variant: "secondary" },
  processing: { label: "Importing", variant: "info" },
  completed: { label: "Completed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

function Counter({ label, value, id, tone }: { label: string; value: number; id: string; tone?: "warning" | "destructive" }) {
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd data-testid={`import-${id}`} className={tone === "destructive" && value > 0 ? "mt-1 text-2xl font-semibold text-destructive tabular-nums" : "mt-1 text-2xl font-semibold tabular-nums"}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

/**
 * An import job, polled every second until it finishes. The page is a URL, so a reload picks the
 * job up again. `totalRows` (counted by the wizard in the browser) scales the bar while rows are read.
 */
export function ImportProgress({ importId, totalRows }: { importId: string; totalRows: number | null }) {
  const [job, setJob] = React.useState<ContactImport | null>(null);
  const [problem, setProblem] = React.useState<ClientProblem | null>(null);

  React.useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function poll() {
      const result = await requestJson<ContactImport>(`/api/v1/imports/${importId}`, { signal: controller.signal });
      if (controller.signal.aborted) return;
      if (!result.ok) {
        setProblem(result.problem);
        if (result.status === 404) return;
      } else {
        setProblem(null);
        setJob(result.data);
        if (FINISHED.has(result.data.status)) return;
      }
      timer = setTimeout(poll, POLL_MS);
    }
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [importId]);

  if (problem?.status === 404) {
    return <p role="alert" className="text-sm text-muted-foreground">This import does not exist, or it belongs to another workspace.</p>;
  }
  if (!job) return <p className="text-sm text-muted-foreground" aria-busy="true">Loading the import…</p>;

  const finished = FINISHED.has(job.status);
  const total = job.totalRows ?? totalRows;
  // Once the file is stored it is merged, a large one in ranges: the counters grow as ranges finish.
  const merging = job.status === "processing" && Boolean(job.startedAt);
  const merged = job.created + job.updated + job.unchanged;
  const percent =
    job.status === "completed"
      ? 100
      : merging
        ? Math.min(99, Math.floor((merged / Math.max(1, job.rowsRead - job.invalid)) * 100))
        : job.status === "processing" && total
          ? Math.min(99, Math.floor((job.rowsRead / Math.max(1, total)) * 100))
          : job.status === "awaiting_file"
            ? 0
            : null;
  const status = IMPORT_STATUS[job.status] ?? { label: job.status, variant: "secondary" as const };

  return (
    <div className="grid gap-6">
      <div className="grid gap-3 rounded-xl border bg-card p-5 shadow-xs">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="min-w-0 truncate text-sm font-medium">{job.fileName}</p>
          <Badge variant={status.variant} data-testid="import-status">{status.label}</Badge>
        </div>
        <div
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={percent === null ? `${formatCount(job.rowsRead)} rows read` : merging ? `${percent}% merged` : `${percent}%`}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={percent === null ? "h-full w-1/3 animate-pulse rounded-full bg-primary" : job.status === "failed" ? "h-full bg-destructive" : "h-full bg-primary transition-[width] duration-500"}
            style={percent === null ? undefined : { width: `${job.status === "failed" ? 100 : percent}%` }}
          />
        </div>
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {job.status === "awaiting_file" && "Waiting for the file to arrive. If the upload was interrupted, start the import again."}
          {job.status === "processing" &&
            (!merging
              ? `${formatCount(job.rowsRead)}${total ? ` of ${formatCount(total)}` : ""} rows read…`
              : merged > 0
                ? `${formatCount(job.rowsRead)} rows read; ${formatCount(merged)} contacts merged so far…`
                : `${formatCount(job.rowsRead)} rows read; merging them into your contacts…`)}
          {job.status === "completed" && `Finished${job.finishedAt ? ` ${formatDateTime(job.finishedAt)}` : ""}.`}
          {job.status === "failed" && (job.error ?? "The import failed.")}
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Import report">
        <Counter label="Rows read" value={job.rowsRead} id="rows-read" />
        <Counter label="Created" value={job.created} id="created" />
        <Counter label="Updated" value={job.updated} id="updated" />
        <Counter label="Unchanged" value={job.unchanged} id="unchanged" />
        <Counter label="Duplicates in the file" value={job.duplicates} id="duplicates" />
        <Counter label="Invalid" value={job.invalid} id="invalid" tone="destructive" />
      </dl>

      {finished && (
        <div className="flex flex-wrap items-center gap-3">
          {job.invalid > 0 && (
            <Button asChild variant="outline">
              <a href={`/api/v1/imports/${job.id}/rejected.csv`} download>
                <Download aria-hidden />
                Download rejected rows
              </a>
            </Button>
          )}
          <Button asChild variant="ghost">
            <Link href="/contacts">View contacts</Link>
          </Button>
          {job.listId && job.status === "completed" && (
            <Button asChild variant="ghost">
              <Link href={`/contacts?listId=${job.listId}`}>View the list</Link>
            </Button>
          )}
        </div>
      )}
      {finished && job.duplicates > 0 && (
        <p className="text-sm text-muted-foreground">
          Duplicates are rows whose phone number appears again later in the file; the last occurrence was imported.
        </p>
      )}
    </div>
  );
}
