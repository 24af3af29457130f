"use client";

import { ArrowLeft, Loader2, MoreHorizontal, Send, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CodeBlock } from "@/components/docs/code-block";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toaster";
import { endpointLabel, isTestEndpoint, SWITCHED_OFF_BY_USER, WEBHOOK_EVENT_LABELS, type DeliveryPage, type TestReceiptView, type WebhookDeliveryView, type WebhookEndpointView, type WebhookEndpointWithSecret } from "@/lib/event-webhooks/schemas";
import { requestJson } from "@/lib/http/client";
import { DeliveryLog } from "./delivery-log";
import { EndpointFormDialog } from "./endpoint-form-dialog";
import { EndpointStatusBadge } from "./endpoints-manager";
import { RevealSigningSecretDialog } from "./reveal-signing-secret-dialog";
import { TestReceipts } from "./test-receipts";

const VERIFY_EXAMPLE = `// Node.js: verify before you trust an event (rawBody: the request body as received, unparsed)
import { createHmac, timingSafeEqual } from "node:crypto";

function verify(secret, headers, rawBody) {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  if (Math.abs(Date.now() / 1000 - timestamp) > 300) return false; // older than 5 minutes: a replay
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest("base64");
  return headers["webhook-signature"].split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    return version === "v1" && signature.length === expected.length &&
      timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
  });
}`;

export function WebhookEndpointDetail({
  initialEndpoint,
  initialDeliveries,
  initialReceipts,
}: {
  initialEndpoint: WebhookEndpointView;
  initialDeliveries: DeliveryPage;
  initialReceipts: TestReceiptView[];
}) {
  const router = useRouter();
  const [endpoint, setEndpoint] = useState(initialEndpoint);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<"delete" | "roll" | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [latest, setLatest] = useState<WebhookDeliveryView | null>(null);
  const base = `/api/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const switchedOffByFailures = !endpoint.enabled && endpoint.disabledReason !== SWITCHED_OFF_BY_USER;

  async function run<T>(label: string, action: () => Promise<{ ok: true; data: T } | { ok: false; problem: { detail: string } }>, done: (data: T) => void) {
    setBusy(label);
    const result = await action();
    setBusy(null);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    done(result.data);
  }

  const sendTest = () =>
    run("test", () => requestJson<WebhookDeliveryView>(`${base}/test`, { method: "POST" }), (delivery) => {
      setLatest(delivery);
      toast.success("Test event queued; its delivery appears below.");
    });
  const setEnabled = (enabled: boolean) =>
    run("toggle", () => requestJson<WebhookEndpointView>(base, { method: "PATCH", body: { enabled } }), (updated) => {
      setEndpoint(updated);
      toast.success(enabled ? "Endpoint switched on; waiting events go out now." : "Endpoint switched off; new events are not recorded for it.");
    });
  const rollSecret = () =>
    run("roll", () => requestJson<WebhookEndpointWithSecret>(`${base}/roll-secret`, { method: "POST" }), (rolled) => {
      setConfirm(null);
      setEndpoint(rolled.endpoint);
      setSecret(rolled.secret);
    });
  const remove = () =>
    run("delete", () => requestJson<null>(base, { method: "DELETE" }), () => {
      toast.success("Endpoint deleted");
      router.push("/settings/webhooks");
      router.refresh();
    });

  return (
    <>
      <Link href="/settings/webhooks" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" />
        Webhooks
      </Link>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="font-mono text-lg font-semibold tracking-tight break-all">{endpointLabel(endpoint)}</h1>
          <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <EndpointStatusBadge endpoint={endpoint} />
            {endpoint.description && <span>{endpoint.description}</span>}
          </div>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button onClick={sendTest} disabled={busy !== null || !endpoint.enabled}>
            {busy === "test" ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />}
            Send test event
          </Button>
          <Button variant="outline" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" size="icon" aria-label="More endpoint actions">
                <MoreHorizontal aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => setEnabled(!endpoint.enabled)}>{endpoint.enabled ? "Switch off" : "Switch on"}</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setConfirm("roll")}>Roll signing secret…</DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem className="text-destructive focus:text-destructive" onSelect={() => setConfirm("delete")}>
                Delete endpoint…
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>

      {!endpoint.enabled && (
        <div
          role="alert"
          className="mb-4 flex flex-col gap-3 rounded-lg border border-amber-300/70 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between dark:border-amber-500/40 dark:bg-amber-950/40 dark:text-amber-200"
        >
          <p className="flex gap-2">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>
              {switchedOffByFailures ? endpoint.disabledReason : "This endpoint is switched off: new events are not recorded for it."}
              {endpoint.pending > 0 && ` ${endpoint.pending.toLocaleString("en")} ${endpoint.pending === 1 ? "delivery waits" : "deliveries wait"} for it.`}
            </span>
          </p>
          <Button size="sm" variant="outline" className="shrink-0" onClick={() => setEnabled(true)} disabled={busy !== null}>
            Switch on
          </Button>
        </div>
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Events</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1.5 text-sm" aria-label="Subscribed events">
              {endpoint.events.map((type) => (
                <li key={type}>
                  <code className="font-mono text-[13px]">{type}</code>
                  <span className="text-muted-foreground"> — {WEBHOOK_EVENT_LABELS[type]}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Verifying events</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm text-muted-foreground">
            <p>
              Each request carries <code className="font-mono text-foreground">webhook-id</code> (the event id: drop repeats),{" "}
              <code className="font-mono text-foreground">webhook-timestamp</code> and{" "}
              <code className="font-mono text-foreground">webhook-signature</code>, in the Standard Webhooks scheme: any of its libraries
              verifies them with the endpoint&apos;s signing secret.
            </p>
            <CodeBlock code={VERIFY_EXAMPLE} label="Signature check example" title="verify.js" />
          </CardContent>
        </Card>
      </div>

      {isTestEndpoint(endpoint) && <TestReceipts endpointId={endpoint.id} initialReceipts={initialReceipts} />}

      <DeliveryLog endpointId={endpoint.id} initialPage={initialDeliveries} added={latest} />

      <EndpointFormDialog open={editing} onOpenChange={setEditing} endpoint={endpoint} onSaved={(saved) => setEndpoint(saved.endpoint)} />
      <RevealSigningSecretDialog secret={secret} onDone={() => setSecret(null)} />
      <AlertDialog open={confirm !== null} onOpenChange={(open) => !open && busy === null && setConfirm(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{confirm === "delete" ? "Delete this endpoint?" : "Roll the signing secret?"}</AlertDialogTitle>
            <AlertDialogDescription>
              {confirm === "delete"
                ? "Its delivery log goes with it, and events not yet delivered are dropped. This cannot be undone."
                : "The current secret stops working at once: update your receiver with the new one, shown next."}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy !== null}>Cancel</AlertDialogCancel>
            <Button variant={confirm === "delete" ? "destructive" : "default"} onClick={confirm === "delete" ? remove : rollSecret} disabled={busy !== null}>
              {busy !== null && <Loader2 className="animate-spin" aria-hidden />}
              {confirm === "delete" ? "Delete endpoint" : "Roll secret"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
