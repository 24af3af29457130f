"use client";

import { useSyncExternalStore } from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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

const ACTION_LABELS: Record<string, string> = {
  "api_key.created": "API key created",
  "api_key.deleted": "API key deleted",
  "sender.settings_changed": "WhatsApp settings changed",
  "campaign.deployed": "Campaign deployed",
  "campaign.paused": "Campaign paused",
  "campaign.resumed": "Campaign resumed",
  "campaign.archived": "Campaign archived",
  "campaign.unarchived": "Campaign unarchived",
  "campaign.published": "Campaign changes published",
  "campaign.changes_discarded": "Campaign changes discarded",
  "member.added": "Member added",
  "member.removed": "Member removed",
  "member.role_changed": "Member role changed",
  "member.invited": "Member invited",
  "member.invitation_revoked": "Invitation withdrawn",
  "member.invitation_link_renewed": "Invitation link renewed",
  "contact.opted_out": "Contact opted out",
  "contact.opted_in": "Contact opted in",
  "webhook_endpoint.created": "Webhook endpoint added",
  "webhook_endpoint.updated": "Webhook endpoint changed",
  "webhook_endpoint.enabled": "Webhook endpoint switched on",
  "webhook_endpoint.disabled": "Webhook endpoint switched off",
  "webhook_endpoint.secret_rolled": "Webhook signing secret rolled",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "alerts.settings_changed": "Alert settings changed",
};

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
      <span className="font-medium">{actor.name}</span> <span className="text-muted-foreground">{actor.email}</span>
    </span>
  );
}

function targetLabel(event: AuditEventView) {
  const name = typeof event.metadata.name === "string" ? event.metadata.name : typeof event.metadata.email === "string" ? event.metadata.email : null;
  const changed = Array.isArray(event.metadata.changed) ? ` (${(event.metadata.changed as string[]).join(", ")})` : "";
  return (
    <span>
      {name ?? <span className="font-mono text-xs">{event.targetId}</span>}
      {changed && <span className="text-muted-foreground">{changed}</span>}
    </span>
  );
}

export function AuditLogTable({ events }: { events: AuditEventView[] }) {
  return (
    <Table aria-label="Audit log">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">Time</TableHead>
          <TableHead scope="col">Actor</TableHead>
          <TableHead scope="col">Action</TableHead>
          <TableHead scope="col">Target</TableHead>
          <TableHead scope="col">IP address</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((event) => (
          <TableRow key={event.id}>
            <TableCell className="whitespace-nowrap tabular-nums">
              <LocalTime value={event.createdAt} />
            </TableCell>
            <TableCell className="max-w-72 truncate">{actorLabel(event.actor)}</TableCell>
            <TableCell>{ACTION_LABELS[event.action] ?? event.action}</TableCell>
            <TableCell className="max-w-72 truncate">{targetLabel(event)}</TableCell>
            <TableCell className="font-mono text-xs">{event.ip ?? <span className="text-muted-foreground">unknown</span>}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
