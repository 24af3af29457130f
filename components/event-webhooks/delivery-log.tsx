"use client";

import { ChevronDown, ChevronRight, Loader2 } from "lucide-react";
import { Fragment, useCallback, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toaster";
import type { DeliveryPage, WebhookDeliveryView } from "@/lib/event-webhooks/schemas";
import { requestJson } from "@/lib/http/client";
import { useVisibleInterval } from "@/components/ui/use-visible-interval";

/** How often the newest page is read again while the page is open: deliveries change by themselves. */
const REFRESH_MS = 2_000;

/** The endpoint's deliveries, newest first, refreshed live; a row opens to the signed body and the answer. */
export function DeliveryLog({ endpointId, initialPage, added }: { endpointId: string; initialPage: DeliveryPage; added: WebhookDeliveryView | null }) {
  const base = `/api/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`;
  const [newest, setNewest] = useState(initialPage.data);
  const [older, setOlder] = useState<WebhookDeliveryView[]>([]);
  const [cursor, setCursor] = useState(initialPage.nextCursor);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [resending, setResending] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const result = await requestJson<DeliveryPage>(base);
    if (result.ok) setNewest(result.data.data);
  }, [base]);

  useVisibleInterval(refresh, REFRESH_MS);

  async function loadOlder() {
    if (!cursor) return;
    setLoadingOlder(true);
    const result = await requestJson<DeliveryPage>(`${base}?cursor=${encodeURIComponent(cursor)}`);
    setLoadingOlder(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    setOlder((current) => [...current, ...result.data.data]);
    setCursor(result.data.nextCursor);
  }

  async function resend(delivery: WebhookDeliveryView) {
    setResending(delivery.id);
    const result = await requestJson<WebhookDeliveryView>(`${base}/${encodeURIComponent(delivery.id)}/resend`, { method: "POST" });
    setResending(null);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(`${delivery.eventType} queued again`);
    await refresh();
  }

  // A delivery just queued from this page shows at once; the next refresh brings its progress.
  const firstPage = added && !newest.some((d) => d.id === added.id) ? [added, ...newest] : newest;
  const seen = new Set(firstPage.map((d) => d.id));
  const rows = [...firstPage, ...older.filter((d) => !seen.has(d.id))];
  return (
    <section aria-labelledby="delivery-log-title" className="mt-6">
      <h2 id="delivery-log-title" className="mb-3 text-base font-semibold">
        Delivery log
      </h2>
      {rows.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-8 text-center text-sm text-muted-foreground">
          No deliveries yet. Send a test event, or wait for the next event you subscribed to.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-xl border bg-card">
          <Table aria-label="Deliveries">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">
                  <span className="sr-only">Details</span>
                </TableHead>
                <TableHead scope="col">Event</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col" className="text-right">
                  Response
                </TableHead>
                <TableHead scope="col" className="hidden text-right sm:table-cell">
                  Time
                </TableHead>
                <TableHead scope="col" className="hidden text-right sm:table-cell">
                  Attempts
                </TableHead>
                <TableHead scope="col">Created</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((delivery) => {
                const expanded = open === delivery.id;
                return (
                  <Fragment key={delivery.id}>
                    <TableRow>
                      <TableCell className="w-10">
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-expanded={expanded}
                          aria-controls={`delivery-${delivery.id}`}
                          aria-label={`Details of ${delivery.eventType} delivery ${delivery.id}`}
                          onClick={() => setOpen(expanded ? null : delivery.id)}
                        >
                          {expanded ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                        </Button>
                      </TableCell>
                      <TableCell className="font-mono text-[13px]">{delivery.eventType}</TableCell>
                      <TableCell>
                        <DeliveryStatusBadge delivery={delivery} />
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{delivery.responseStatus ?? "—"}</TableCell>
                      <TableCell className="hidden text-right tabular-nums sm:table-cell">{delivery.responseMs === null ? "—" : `${delivery.responseMs} ms`}</TableCell>
                      <TableCell className="hidden text-right tabular-nums sm:table-cell">{delivery.attempts}</TableCell>
                      <TableCell className="whitespace-nowrap text-muted-foreground">
                        <LocalTime iso={delivery.createdAt} />
                      </TableCell>
                    </TableRow>
                    {expanded && (
                      <TableRow id={`delivery-${delivery.id}`} className="hover:bg-transparent">
                        <TableCell colSpan={7} className="bg-muted/30">
                          <DeliveryDetails delivery={delivery} resending={resending === delivery.id} onResend={() => resend(delivery)} />
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
      {cursor && (
        <div className="mt-3 flex justify-center">
          <Button variant="outline" onClick={loadOlder} disabled={loadingOlder}>
            {loadingOlder && <Loader2 className="animate-spin" aria-hidden />}
            Load older deliveries
          </Button>
        </div>
      )}
    </section>
  );
}

function DeliveryStatusBadge({ delivery }: { delivery: WebhookDeliveryView }) {
  if (delivery.status === "succeeded") return <Badge variant="success">Delivered</Badge>;
  if (delivery.status === "failed") return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant={delivery.attempts > 0 ? "warning" : "secondary"}>{delivery.attempts > 0 ? "Retrying" : "Pending"}</Badge>;
}

function DeliveryDetails({ delivery, resending, onResend }: { delivery: WebhookDeliveryView; resending: boolean; onResend: () => void }) {
  return (
    <div className="grid gap-3 py-2 text-sm whitespace-normal">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Event id</dt>
        <dd className="font-mono text-[13px] break-all">{delivery.eventId}</dd>
        {delivery.lastAttemptAt && (
          <>
            <dt className="text-muted-foreground">Last attempt</dt>
            <dd>
              <LocalTime iso={delivery.lastAttemptAt} />
            </dd>
          </>
        )}
        {delivery.nextAttemptAt && delivery.status === "pending" && (
          <>
            <dt className="text-muted-foreground">Next attempt</dt>
            <dd>
              <LocalTime iso={delivery.nextAttemptAt} />
            </dd>
          </>
        )}
        {delivery.error && (
          <>
            <dt className="text-muted-foreground">Error</dt>
            <dd className="text-destructive">{delivery.error}</dd>
          </>
        )}
      </dl>
      <div className="grid gap-3 lg:grid-cols-2">
        <div className="min-w-0">
          <h3 className="mb-1 text-xs font-medium text-muted-foreground">Request body</h3>
          <pre tabIndex={0} aria-label="Request body" className="max-h-72 overflow-auto rounded-md border bg-background p-2 font-mono text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            {prettyJson(delivery.body) ?? "Rendered on the first attempt."}
          </pre>
        </div>
        <div className="min-w-0">
          <h3 className="mb-1 text-xs font-medium text-muted-foreground">Response body{delivery.responseStatus ? ` (${delivery.responseStatus})` : ""}</h3>
          <pre tabIndex={0} aria-label="Response body" className="max-h-72 overflow-auto rounded-md border bg-background p-2 font-mono text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            {delivery.responseBody || "—"}
          </pre>
        </div>
      </div>
      <div>
        <Button size="sm" variant="outline" onClick={onResend} disabled={resending}>
          {resending && <Loader2 className="animate-spin" aria-hidden />}
          Resend
        </Button>
      </div>
    </div>
  );
}

function prettyJson(text: string | null): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
