"use client";

import Link from "next/link";
import { DirectionLabel, InboundKindBadge } from "@/components/logs/message-parts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PublicInboundMessage } from "@/lib/inbound/public";
import { inboundSummary } from "@/lib/inbound/public";
import { formatDateTime } from "./format";
import { MessageStatusBadge } from "./message-status-badge";
import { useApi } from "./use-api";

interface OutboundHistoryMessage {
  id: string;
  direction: "outbound";
  status: string;
  campaignId: string;
  campaignName?: string;
  text: string;
  error: { code: string | null; reason: string } | null;
  createdAt: string;
}

type InboundHistoryMessage = PublicInboundMessage & { campaignName: string | null };
type HistoryMessage = OutboundHistoryMessage | InboundHistoryMessage;

function CampaignLink({ id, name }: { id: string; name: string | null | undefined }) {
  return (
    <Link href={`/campaigns/${id}/logs`} className="hover:text-primary hover:underline">
      {name ?? id}
    </Link>
  );
}

/** Every message sent to this contact and every message they sent, across campaigns, newest first. */
export function MessageHistory({ contactId, version }: { contactId: string; version: number }) {
  const { data, loading, problem } = useApi<{ data: HistoryMessage[] }>(`/api/v1/contacts/${contactId}/messages?limit=50&v=${version}`);
  const rows = data?.data ?? [];
  return (
    <Card className="gap-3 pb-0">
      <CardHeader>
        <CardTitle>Messages</CardTitle>
        <CardDescription>Sent to the contact and received from them, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="px-0">
        {problem ? (
          <p role="alert" className="px-5 pb-5 text-sm text-destructive">{problem.detail}</p>
        ) : rows.length === 0 ? (
          <p className="px-5 pb-5 text-sm text-muted-foreground">{loading ? "Loading messages…" : "No messages yet."}</p>
        ) : (
          <Table aria-label="Message history">
            <TableHeader>
              <TableRow>
                <TableHead className="pl-5">Direction</TableHead>
                <TableHead>Message</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Campaign</TableHead>
                <TableHead className="pr-5">Time</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((message) =>
                message.direction === "inbound" ? (
                  <TableRow key={message.id} data-message-id={message.id} data-direction="inbound" className="bg-muted/30">
                    <TableCell className="pl-5">
                      <DirectionLabel direction="inbound" />
                    </TableCell>
                    <TableCell className="min-w-56 whitespace-normal">
                      <span className="flex flex-wrap items-center gap-2">
                        <InboundKindBadge kind={message.kind} />
                        <span>{inboundSummary(message)}</span>
                      </span>
                    </TableCell>
                    <TableCell className="text-muted-foreground">—</TableCell>
                    <TableCell>{message.campaignId ? <CampaignLink id={message.campaignId} name={message.campaignName} /> : <span className="text-muted-foreground">—</span>}</TableCell>
                    <TableCell className="pr-5 text-muted-foreground"><time dateTime={message.receivedAt}>{formatDateTime(message.receivedAt)}</time></TableCell>
                  </TableRow>
                ) : (
                  <TableRow key={message.id} data-message-id={message.id} data-direction="outbound">
                    <TableCell className="pl-5">
                      <DirectionLabel direction="outbound" />
                    </TableCell>
                    <TableCell className="min-w-56 whitespace-normal">
                      <span className="line-clamp-2">{message.text}</span>
                      {message.error && (
                        <span className="block text-xs text-muted-foreground">
                          {message.error.reason}
                          {message.error.code ? ` (${message.error.code})` : ""}
                        </span>
                      )}
                    </TableCell>
                    <TableCell><MessageStatusBadge status={message.status} /></TableCell>
                    <TableCell><CampaignLink id={message.campaignId} name={message.campaignName} /></TableCell>
                    <TableCell className="pr-5 text-muted-foreground"><time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time></TableCell>
                  </TableRow>
                ),
              )}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
