"use client";

import { Upload } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatDateTime } from "./format";
import { IMPORT_STATUS } from "./import-progress";
import type { ContactImport, Page } from "./types";
import { useApi } from "./use-api";

/** Recent imports, newest first. */
export function ImportsTable() {
  const { data, loading, problem } = useApi<Page<ContactImport>>("/api/v1/imports?limit=50");
  if (problem) return <p role="alert" className="text-sm text-destructive">{problem.detail}</p>;
  const rows = data?.data ?? [];
  if (loading && rows.length === 0) return <p className="text-sm text-muted-foreground">Loading imports…</p>;
  if (rows.length === 0) {
    return (
      <EmptyState
        icon={<Upload aria-hidden />}
        title="No imports yet"
        description="Import a CSV file of contacts: map its columns, choose what happens to existing contacts, and follow the job here."
        action={
          <Button asChild>
            <Link href="/contacts/import"><Upload aria-hidden />Import contacts</Link>
          </Button>
        }
      />
    );
  }
  return (
    <div className="overflow-hidden rounded-xl border">
      <Table aria-label="Imports">
        <TableHeader>
          <TableRow>
            <TableHead>File</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Rows</TableHead>
            <TableHead className="text-right">Created</TableHead>
            <TableHead className="text-right">Updated</TableHead>
            <TableHead className="text-right">Duplicates</TableHead>
            <TableHead className="text-right">Invalid</TableHead>
            <TableHead>Started</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((job) => {
            const status = IMPORT_STATUS[job.status] ?? { label: job.status, variant: "secondary" as const };
            return (
              <TableRow key={job.id}>
                <TableCell className="max-w-64 truncate font-medium">
                  <Link href={`/contacts/imports/${job.id}`} className="hover:text-primary hover:underline">{job.fileName}</Link>
                </TableCell>
                <TableCell><Badge variant={status.variant}>{status.label}</Badge></TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(job.rowsRead)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(job.created)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(job.updated)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(job.duplicates)}</TableCell>
                <TableCell className={job.invalid > 0 ? "text-right text-destructive tabular-nums" : "text-right tabular-nums"}>{formatCount(job.invalid)}</TableCell>
                <TableCell className="text-muted-foreground"><time dateTime={job.createdAt}>{formatDateTime(job.createdAt)}</time></TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
