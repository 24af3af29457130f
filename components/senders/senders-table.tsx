"use client";

import { Pencil, Star, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { SenderResource } from "@/lib/senders/collection";
import { DeleteSenderDialog } from "./delete-sender-dialog";

/** A sender as the settings list shows it: the API's view and whether its last sends are failing. */
export interface SenderListItem extends SenderResource {
  failing: boolean;
}

const STATUS: Record<SenderResource["status"] | "failing", { label: string; variant: "success" | "info" | "warning" | "destructive" }> = {
  connected: { label: "Connected", variant: "success" },
  untested: { label: "Not tested", variant: "warning" },
  disconnected: { label: "Disconnected", variant: "destructive" },
  failing: { label: "Failing", variant: "destructive" },
};

export function senderNumber(sender: Pick<SenderResource, "provider" | "displayPhoneNumber" | "phoneNumberId">): string {
  if (sender.provider === "sandbox") return "Simulated";
  return sender.displayPhoneNumber ?? (sender.phoneNumberId ? `ID ${sender.phoneNumberId}` : "Not set up");
}

function statusOf(sender: SenderListItem) {
  return STATUS[sender.failing ? "failing" : sender.status];
}

/** Provider, number, throughput, quality and messaging limit: the table's columns, the card's list. */
function details(sender: SenderListItem): [string, string][] {
  return [
    ["Provider", sender.provider === "sandbox" ? "Sandbox" : "WhatsApp Cloud API"],
    ["Number", senderNumber(sender)],
    ["Throughput", `${sender.throughputPerSecond.toLocaleString("en-US")} msg/s`],
    ["Quality", sender.provider === "sandbox" ? "—" : (sender.qualityRating ?? "Unknown")],
    ["Messaging limit", sender.messagingLimit],
  ];
}

/** Settings → WhatsApp: every sender with its limits and state, and what can be done with it. */
export function SendersTable({ senders }: { senders: SenderListItem[] }) {
  const router = useRouter();
  const [deleting, setDeleting] = useState<SenderListItem | null>(null);
  const [pending, setPending] = useState<string | null>(null);

  async function makeDefault(sender: SenderListItem) {
    setPending(sender.id);
    const result = await requestJson<SenderResource>(`/api/v1/senders/${encodeURIComponent(sender.id)}`, { method: "PATCH", body: { isDefault: true } });
    setPending(null);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(`“${sender.name}” is now the default sender`);
    router.refresh();
  }

  const actions = (sender: SenderListItem) => (
    <>
      <Button asChild variant="ghost" size="sm">
        <Link href={`/settings/whatsapp/${sender.id}`} aria-label={`Edit ${sender.name}`}>
          <Pencil aria-hidden />
          Edit
        </Link>
      </Button>
      {!sender.isDefault && (
        <Button variant="ghost" size="sm" aria-label={`Make default: ${sender.name}`} disabled={pending === sender.id} onClick={() => void makeDefault(sender)}>
          <Star aria-hidden />
          Make default
        </Button>
      )}
      <Button variant="ghost" size="sm" aria-label={`Delete ${sender.name}`} onClick={() => setDeleting(sender)}>
        <Trash2 aria-hidden />
        Delete
      </Button>
    </>
  );

  return (
    <>
      <div className="hidden min-w-0 md:block">
        <Table>
          <TableCaption className="sr-only">Senders</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Provider</TableHead>
              <TableHead>Number</TableHead>
              <TableHead>Throughput</TableHead>
              <TableHead>Quality</TableHead>
              <TableHead>Messaging limit</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {senders.map((sender) => {
              const status = statusOf(sender);
              const [provider, number, throughput, quality, limit] = details(sender).map(([, value]) => value);
              return (
                <TableRow key={sender.id}>
                  <TableCell className="font-medium">
                    <span className="break-words">{sender.name}</span>
                    {sender.isDefault && (
                      <Badge variant="info" className="ml-2">
                        Default
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell>{provider}</TableCell>
                  <TableCell>{number}</TableCell>
                  <TableCell>{throughput}</TableCell>
                  <TableCell>{quality}</TableCell>
                  <TableCell>{limit}</TableCell>
                  <TableCell>
                    <Badge variant={status.variant}>{status.label}</Badge>
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">{actions(sender)}</div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
      {/* Phones: one card per sender, its details as a definition list. Both layouts are in the
          server HTML and CSS shows one; display: none keeps the other out of the accessibility tree. */}
      <ul aria-label="Senders" className="divide-y rounded-xl border bg-card shadow-xs md:hidden">
        {senders.map((sender) => {
          const status = statusOf(sender);
          return (
            <li key={sender.id} className="grid gap-3 px-4 py-3">
              <div className="flex items-start justify-between gap-2">
                <span className="flex min-w-0 flex-wrap items-center gap-2">
                  <span className="font-medium break-words">{sender.name}</span>
                  {sender.isDefault && <Badge variant="info">Default</Badge>}
                </span>
                <Badge variant={status.variant}>{status.label}</Badge>
              </div>
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                {details(sender).map(([term, value]) => (
                  <div key={term} className="contents">
                    <dt className="text-muted-foreground">{term}</dt>
                    <dd className="break-words">{value}</dd>
                  </div>
                ))}
              </dl>
              <div className="-ml-3 flex flex-wrap gap-1">{actions(sender)}</div>
            </li>
          );
        })}
      </ul>
      <DeleteSenderDialog
        sender={deleting}
        others={senders.filter((s) => s.id !== deleting?.id)}
        onClose={() => setDeleting(null)}
        onDeleted={(sender) => {
          setDeleting(null);
          toast.success(`“${sender.name}” deleted`);
          router.refresh();
        }}
      />
    </>
  );
}
