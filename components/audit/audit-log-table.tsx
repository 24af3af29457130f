"use client";

import { useSyncExternalStore } from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { auditActionLabel } from "@/lib/audit/actions";
import type { AuditEventView } from "@/lib/audit/service";

const noSubscription = () => () => {};

const utcFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const localFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

/** The server renders UTC (it does not know the viewer's zone); the browser then shows its own. */
function LocalTime({ value }: { value: string }) {
  const mounted = useSyncExternalStore(noSubscription, () => true, () => false);
  const date = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {mounted ? localFormat.format(date) : `${utcFormat.format(date)} UTC`}
    </time>
  );
}

function actorLabel(actor: AuditEventView["actor"]) {
  if (!actor) return <span className="text-muted-foreground">System</span>;
  if (actor.type === "api_key") {
    return (
      <span title={actor.displayKey}>
        API key <span className="font-medium">{actor.name}</span>
      </span>
    );
  }
  return (
    <span title={actor.email}>
      <span className="font-medium">{actor.name}</span> <span className="block text-xs text-muted-foreground">{actor.email}</span>
    </span>
  );
}

const TARGET_KINDS: Record<string, string> = {
  campaign: "Campaign",
  contact: "Contact",
  api_key: "API key",
  sender: "WhatsApp number",
  webhook_endpoint: "Webhook endpoint",
  user: "User",
  invitation: "Invitation",
  workspace: "Workspace",
};

function targetLabel(event: AuditEventView) {
  const changed = Array.isArray(event.metadata.changed) ? ` (${(event.metadata.changed as string[]).join(", ")})` : "";
  const kind = TARGET_KINDS[event.targetType];
  return (
    <span title={event.targetId}>
      {kind && <span className="text-muted-foreground">{kind} </span>}
      {event.targetName ? <span className="font-medium">{event.targetName}</span> : <span className="font-mono text-xs">{event.targetId}</span>}
      {event.targetDetail && <span className="block text-xs text-muted-foreground">{event.targetDetail}</span>}
      {changed && <span className="text-muted-foreground">{changed}</span>}
    </span>
  );
}

function AddressLabel({ event }: { event: AuditEventView }) {
  return event.ip ? <span className="font-mono">{event.ip}</span> : <span className="text-muted-foreground">{event.ipNote}</span>;
}

/** Phones: one entry per item, what happened first. */
function AuditLogList({ events }: { events: AuditEventView[] }) {
  return (
    <ol aria-label="Audit log" className="divide-y">
      {events.map((event) => (
        <li key={event.id} className="grid gap-1 px-4 py-3 text-sm">
          <p className="font-medium" title={event.action}>
            {auditActionLabel(event.action)}
          </p>
          <p className="break-words">{targetLabel(event)}</p>
          <p className="text-xs text-muted-foreground">
            <LocalTime value={event.createdAt} />
          </p>
          <div className="text-xs">{actorLabel(event.actor)}</div>
          <p className="text-xs break-words">
            <span className="text-muted-foreground">Address: </span>
            <AddressLabel event={event} />
          </p>
        </li>
      ))}
    </ol>
  );
}

/**
 * A table on wide screens, a list on phones: both are rendered and CSS shows one (the other is
 * display:none, so assistive technology meets it once), so a phone never sees the table first.
 */
export function AuditLogTable({ events }: { events: AuditEventView[] }) {
  return (
    <>
      <div className="hidden md:block">
        <AuditLogWideTable events={events} />
      </div>
      <div className="md:hidden">
        <AuditLogList events={events} />
      </div>
    </>
  );
}

function AuditLogWideTable({ events }: { events: AuditEventView[] }) {
  return (
    <Table aria-label="Audit log">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">Time</TableHead>
          <TableHead scope="col">Actor</TableHead>
          <TableHead scope="col">Action</TableHead>
          <TableHead scope="col">Target</TableHead>
          <TableHead scope="col">Address</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((event) => (
          <TableRow key={event.id}>
            <TableCell className="whitespace-nowrap tabular-nums">
              <LocalTime value={event.createdAt} />
            </TableCell>
            <TableCell className="max-w-64 truncate">{actorLabel(event.actor)}</TableCell>
            <TableCell title={event.action}>{auditActionLabel(event.action)}</TableCell>
            <TableCell className="max-w-72 truncate">{targetLabel(event)}</TableCell>
            <TableCell className="max-w-60 min-w-44 text-xs whitespace-normal">
              <AddressLabel event={event} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
