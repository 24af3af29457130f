"use client";

import { Plus, TriangleAlert, Webhook } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { endpointLabel, SWITCHED_OFF_BY_USER, type WebhookEndpointView } from "@/lib/event-webhooks/schemas";
import { EndpointFormDialog } from "./endpoint-form-dialog";
import { RevealSigningSecretDialog } from "./reveal-signing-secret-dialog";

export function WebhookEndpointsManager({ initialEndpoints }: { initialEndpoints: WebhookEndpointView[] }) {
  const [endpoints, setEndpoints] = useState(initialEndpoints);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const switchedOff = endpoints.filter((endpoint) => !endpoint.enabled && endpoint.disabledReason !== SWITCHED_OFF_BY_USER);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Send message statuses, finished campaigns and opt-outs to your own systems as they happen."
        actions={
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add endpoint
          </Button>
        }
      />
      {switchedOff.length > 0 && (
        <div role="alert" className="mb-4 flex gap-3 rounded-lg border border-amber-300/70 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-950/40 dark:text-amber-200">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <p>
            {switchedOff.length === 1 ? "One endpoint was" : `${switchedOff.length} endpoints were`} switched off because deliveries kept
            failing. Events for {switchedOff.length === 1 ? "it" : "them"} wait until you fix the receiver and switch{" "}
            {switchedOff.length === 1 ? "it" : "them"} on again.
          </p>
        </div>
      )}
      {endpoints.length === 0 ? (
        <EmptyState
          icon={<Webhook aria-hidden />}
          title="No webhook endpoints yet"
          description="Add an HTTPS endpoint and Sendstream will POST a signed event to it each time a message is sent, delivered, read or fails, a bulk campaign completes or a contact opts out. No receiver yet? Add the built-in test endpoint and watch the events arrive here."
        />
      ) : (
        <div className="overflow-x-auto rounded-xl border bg-card">
          <Table aria-label="Webhook endpoints">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">Endpoint</TableHead>
                <TableHead scope="col">Events</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col" className="text-right">
                  Waiting
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Failed (7 days)
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {endpoints.map((endpoint) => (
                <TableRow key={endpoint.id}>
                  <TableCell className="max-w-80">
                    <Link href={`/settings/webhooks/${endpoint.id}`} className="block truncate font-mono text-[13px] font-medium hover:underline" title={endpointLabel(endpoint)}>
                      {endpointLabel(endpoint)}
                    </Link>
                    {endpoint.description && <span className="block truncate text-xs text-muted-foreground">{endpoint.description}</span>}
                  </TableCell>
                  <TableCell className="text-muted-foreground" title={endpoint.events.join(", ")}>
                    {endpoint.events.length === 1 ? endpoint.events[0] : `${endpoint.events.length} events`}
                  </TableCell>
                  <TableCell>
                    <EndpointStatusBadge endpoint={endpoint} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{endpoint.pending.toLocaleString("en")}</TableCell>
                  <TableCell className="text-right tabular-nums">{endpoint.failedLastWeek.toLocaleString("en")}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <EndpointFormDialog
        open={adding}
        onOpenChange={setAdding}
        endpoint={null}
        onSaved={(saved) => {
          setEndpoints((current) => [...current, saved.endpoint]);
          setSecret(saved.secret ?? null);
        }}
      />
      <RevealSigningSecretDialog secret={secret} onDone={() => setSecret(null)} />
    </>
  );
}

export function EndpointStatusBadge({ endpoint }: { endpoint: Pick<WebhookEndpointView, "enabled" | "disabledReason"> }) {
  if (endpoint.enabled) return <Badge variant="success">Enabled</Badge>;
  return (
    <Badge variant={endpoint.disabledReason === SWITCHED_OFF_BY_USER ? "secondary" : "warning"} title={endpoint.disabledReason ?? undefined}>
      Switched off
    </Badge>
  );
}
