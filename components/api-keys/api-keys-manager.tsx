"use client";

import { KeyRound } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toaster";
import type { ApiKeyListItem, ApiKeyScope, CreatedApiKey } from "@/lib/api-keys/schemas";
import { CreateApiKeyDialog, type ScopableCampaign } from "./create-api-key-dialog";
import { DeleteApiKeyDialog } from "./delete-api-key-dialog";
import { RelativeTime, useNow } from "./relative-time";
import { RevealApiKeyDialog } from "./reveal-api-key-dialog";

export function ApiKeysManager({
  initialKeys,
  campaigns,
  currentUser,
  serverNow,
}: {
  initialKeys: ApiKeyListItem[];
  /** Trigger campaigns a key can be limited to. */
  campaigns: ScopableCampaign[];
  currentUser: { id: string; name: string };
  serverNow: number;
}) {
  const [keys, setKeys] = useState(initialKeys);
  const [revealed, setRevealed] = useState<CreatedApiKey | null>(null);
  const [revealOpen, setRevealOpen] = useState(false);
  const [deleting, setDeleting] = useState<ApiKeyListItem | null>(null);
  const now = useNow(serverNow);
  /** Where focus goes when the delete dialog has closed after a delete (the deleted row's button is gone). */
  const focusAfterDelete = useRef<string | null>(null);
  const campaignNames = new Map(campaigns.map((campaign) => [campaign.id, campaign.name]));

  function handleCreated(created: CreatedApiKey) {
    const listed: ApiKeyListItem = {
      id: created.id,
      name: created.name,
      displayKey: created.displayKey,
      createdAt: created.createdAt,
      lastUsedAt: null,
      createdBy: currentUser,
      scope: created.scope,
    };
    setKeys((current) => [listed, ...current]);
    setRevealed(created);
    setRevealOpen(true);
  }

  function handleDeleted(deleted: ApiKeyListItem) {
    const index = keys.findIndex((key) => key.id === deleted.id);
    const neighbour = keys[index + 1] ?? keys[index - 1];
    focusAfterDelete.current = neighbour ? `delete-key-${neighbour.id}` : CREATE_BUTTON_ID;
    setKeys((current) => current.filter((key) => key.id !== deleted.id));
    setDeleting(null);
    toast.success(`API key “${deleted.name}” deleted`);
  }

  return (
    <>
      <PageHeader
        title="API Keys"
        description="Keys let your shop, CRM or Zapier trigger campaigns and use the REST API."
        actions={<CreateApiKeyDialog triggerId={CREATE_BUTTON_ID} campaigns={campaigns} onCreated={handleCreated} />}
      />
      {keys.length === 0 ? (
        <EmptyState
          icon={<KeyRound aria-hidden />}
          title="No API keys yet"
          description="An API key lets an external system — your shop, CRM or Zapier — call a campaign's webhook and the REST API on behalf of this workspace. Create one key per integration so you can revoke it on its own; the key is shown once, when you create it."
        />
      ) : (
        <div className="rounded-xl border bg-card">
          <Table aria-label="API keys">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">Name</TableHead>
                <TableHead scope="col">Key</TableHead>
                <TableHead scope="col">Created</TableHead>
                <TableHead scope="col">Last used</TableHead>
                <TableHead scope="col">Access</TableHead>
                <TableHead scope="col">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.map((key) => (
                <TableRow key={key.id} id={`key-row-${key.id}`} tabIndex={-1} className="focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring">
                  <TableCell className="max-w-64 truncate font-medium" title={key.name}>
                    {key.name}
                  </TableCell>
                  <TableCell>
                    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{key.displayKey}</code>
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <RelativeTime value={key.createdAt} now={now} />
                    {key.createdBy && <span className="block text-xs">by {key.createdBy.name}</span>}
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    {key.lastUsedAt ? <RelativeTime value={key.lastUsedAt} now={now} /> : "Never"}
                  </TableCell>
                  <TableCell className="max-w-64">
                    <ScopeLabel scope={key.scope} campaignNames={campaignNames} />
                  </TableCell>
                  <TableCell className="text-right">
                    <Button
                      id={`delete-key-${key.id}`}
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                      aria-label={`Delete key ${key.name}`}
                      onClick={() => setDeleting(key)}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <section aria-labelledby="api-keys-usage" className="mt-6 rounded-xl border bg-card px-5 py-4 text-sm">
        <h2 id="api-keys-usage" className="font-medium">
          Using a key
        </h2>
        <p className="mt-1 text-muted-foreground">
          Send the key in the <code className="font-mono text-xs text-foreground">x-api-key</code> header or as{" "}
          <code className="font-mono text-xs text-foreground">Authorization: Bearer &lt;key&gt;</code> — never in the URL. Check a key
          with <code className="font-mono text-xs text-foreground">GET /api/v1/me</code>. Last used is updated within a minute.
        </p>
        <p className="mt-2">
          <Link href="/docs/api" className="font-medium text-primary underline-offset-4 hover:underline">
            API reference
          </Link>
          <span className="text-muted-foreground"> — every endpoint, with examples for triggering campaigns and managing contacts.</span>
        </p>
      </section>
      <RevealApiKeyDialog
        created={revealed}
        open={revealOpen}
        onDone={() => setRevealOpen(false)}
        onClosed={(event) => {
          // The new key's row, so the next Tab reaches its Delete button.
          focusById(event, revealed ? `key-row-${revealed.id}` : null);
          setRevealed(null);
        }}
      />
      <DeleteApiKeyDialog
        apiKey={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={handleDeleted}
        onCloseAutoFocus={(event) => {
          focusById(event, focusAfterDelete.current);
          focusAfterDelete.current = null;
        }}
      />
    </>
  );
}

const CREATE_BUTTON_ID = "create-api-key";

/** Moves focus to an element by id once a dialog has closed, instead of letting it fall back to the page. */
function focusById(event: Event, id: string | null) {
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

function ScopeLabel({ scope, campaignNames }: { scope: ApiKeyScope; campaignNames: Map<string, string> }) {
  if (scope.type === "full") return <span className="text-muted-foreground">Full access</span>;
  const names = scope.campaignIds.map((id) => campaignNames.get(id) ?? "an archived or deleted campaign");
  return (
    <span className="block truncate" title={names.join(", ")}>
      <span className="font-medium">Trigger only</span> <span className="text-muted-foreground">· {names.join(", ")}</span>
    </span>
  );
}
