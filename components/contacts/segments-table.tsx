"use client";

import { Filter, Plus } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatDate } from "./format";
import type { Page, Segment } from "./types";
import { useApi } from "./use-api";

const newSegment = (
  <Button asChild>
    <Link href="/contacts/segments/new"><Plus aria-hidden />New segment</Link>
  </Button>
);

/** Saved segments with the number of contacts each matches right now. */
export function SegmentsTable() {
  const { data, loading, problem } = useApi<Page<Segment>>("/api/v1/segments?limit=100");
  if (problem) return <p role="alert" className="text-sm text-destructive">{problem.detail}</p>;
  const segments = data?.data ?? [];
  if (loading && segments.length === 0) return <p className="text-sm text-muted-foreground">Loading segments…</p>;
  if (segments.length === 0) {
    return (
      <EmptyState
        icon={<Filter aria-hidden />}
        title="No segments yet"
        description="A segment is a saved filter — attributes, lists, consent, when contacts were added, how their last message went — counted live. Bulk campaigns can target it."
        action={newSegment}
      />
    );
  }
  return (
    <div className="grid gap-4">
      <div className="flex justify-end">{newSegment}</div>
      <div className="overflow-hidden rounded-xl border">
        <Table aria-label="Segments">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Conditions</TableHead>
              <TableHead className="text-right">Contacts</TableHead>
              <TableHead>Created</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {segments.map((segment) => (
              <TableRow key={segment.id}>
                <TableCell className="max-w-72 truncate font-medium">
                  <Link href={`/contacts/segments/${segment.id}`} className="hover:text-primary hover:underline">{segment.name}</Link>
                </TableCell>
                <TableCell className="text-muted-foreground">
                  {segment.filter.conditions.length === 0 ? "Every contact" : `${segment.filter.match === "all" ? "All" : "Any"} of ${segment.filter.conditions.length}`}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  <Link href={`/contacts?segmentId=${segment.id}`} className="hover:text-primary hover:underline">{formatCount(segment.contactCount)}</Link>
                </TableCell>
                <TableCell className="text-muted-foreground"><time dateTime={segment.createdAt}>{formatDate(segment.createdAt)}</time></TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
