"use client";

import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "./format";
import { MessageStatusBadge } from "./message-status-badge";
import { useApi } from "./use-api";

interface HistoryMessage {
  id: string;
  status: string;
  campaignId: string;
  campaignName?: string;
  error: { code: string | null; reason: string } | null;
  createdAt: string;
}

/** Every message sent (or skipped) to this contact, across campaigns, newest first. */
export function MessageHistory({ contactId, version }: { contactId: string; version: number }) {
  const { data, loading, problem } = useApi<{ data: HistoryMessage[] }>(`/api/v1/contacts/${contactId}/messages?limit=50&v=${version}`);
  const rows = data?.data ?? [];
  return (
    <Card className="gap-3 pb-0">
      <CardHeader>
        <CardTitle>Message history</CardTitle>
        <CardDescription>Messages across all campaigns, newest first.</CardDescription>
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
                <TableHead className="pl-5">Status</TableHead>
                <TableHead>Campaign</TableHead>
                <TableHead>Time</TableHead>
                <TableHead className="pr-5">Error</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((message) => (
                <TableRow key={message.id} data-message-id={message.id}>
                  <TableCell className="pl-5"><MessageStatusBadge status={message.status} /></TableCell>
                  <TableCell>
                    <Link href={`/campaigns/${message.campaignId}/logs`} className="hover:text-primary hover:underline">
                      {message.campaignName ?? message.campaignId}
                    </Link>
                  </TableCell>
                  <TableCell className="text-muted-foreground"><time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time></TableCell>
                  <TableCell className="min-w-56 pr-5 whitespace-normal text-muted-foreground">
                    {message.error ? `${message.error.reason}${message.error.code ? ` (${message.error.code})` : ""}` : "—"}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
