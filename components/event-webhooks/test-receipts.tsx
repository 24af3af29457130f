"use client";

import { CircleCheck, CircleX, Inbox } from "lucide-react";
import { useCallback, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import type { TestReceiptView } from "@/lib/event-webhooks/schemas";
import { requestJson } from "@/lib/http/client";
import { useVisibleInterval } from "@/components/ui/use-visible-interval";

const REFRESH_MS = 2_000;

/** What the built-in test endpoint received, newest first, refreshed live; each opens to its headers and body. */
export function TestReceipts({ endpointId, initialReceipts }: { endpointId: string; initialReceipts: TestReceiptView[] }) {
  const url = `/api/webhook-endpoints/${encodeURIComponent(endpointId)}/received`;
  const [receipts, setReceipts] = useState(initialReceipts);

  const refresh = useCallback(async () => {
    const result = await requestJson<{ data: TestReceiptView[] }>(url);
    if (result.ok) setReceipts(result.data.data);
  }, [url]);

  useVisibleInterval(refresh, REFRESH_MS);

  return (
    <Card className="mt-4">
      <CardHeader>
        <CardTitle id="received-title">Received events</CardTitle>
        <CardDescription>
          The built-in test endpoint keeps the last 50 requests it received, exactly as your receiver would get them, with the signature checked
          against this endpoint&apos;s signing secret.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {receipts.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Inbox aria-hidden className="size-4" /> Nothing received yet. Send a test event, or send a message from a campaign.
          </p>
        ) : (
          <ul aria-labelledby="received-title" className="grid gap-2">
            {receipts.map((receipt) => (
              <li key={receipt.id} className="rounded-lg border">
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                    <code className="font-mono text-[13px] font-medium">{receipt.eventType}</code>
                    {receipt.signatureValid ? (
                      <span className="inline-flex items-center gap-1 text-xs font-medium text-emerald-700 dark:text-emerald-400">
                        <CircleCheck aria-hidden className="size-3.5" /> Signature verified
                      </span>
                    ) : (
                      <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-700 dark:text-amber-400" title="Signed with an earlier signing secret, or not at all">
                        <CircleX aria-hidden className="size-3.5" /> Signature does not match the current secret
                      </span>
                    )}
                    <span className="text-xs text-muted-foreground">
                      <LocalTime iso={receipt.receivedAt} />
                    </span>
                  </summary>
                  <div className="grid gap-3 border-t px-3 py-2">
                    <div className="min-w-0">
                      <h3 className="mb-1 text-xs font-medium text-muted-foreground">Headers</h3>
                      <dl className="grid gap-x-3 gap-y-0.5 font-mono text-xs sm:grid-cols-[auto_minmax(0,1fr)]">
                        {Object.entries(receipt.headers).map(([name, value]) => (
                          <div key={name} className="contents">
                            <dt className="text-muted-foreground">{name}</dt>
                            <dd className="min-w-0 break-all">{value}</dd>
                          </div>
                        ))}
                      </dl>
                    </div>
                    <div className="min-w-0">
                      <h3 className="mb-1 text-xs font-medium text-muted-foreground">Body</h3>
                      <pre
                        tabIndex={0}
                        aria-label={`Body of ${receipt.eventType} ${receipt.eventId}`}
                        className="max-h-72 overflow-auto rounded-md border bg-background p-2 font-mono text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      >
                        {pretty(receipt.body)}
                      </pre>
                    </div>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
