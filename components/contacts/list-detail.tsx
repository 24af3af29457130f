"use client";

import { Filter, Trash2, UserPlus } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AddFromSegmentDialog, AddMembersDialog } from "./add-members-dialog";
import { formatCount, formatDate } from "./format";
import { changeMembers } from "./list-membership";
import type { Contact, ContactList, Page } from "./types";
import { useApi } from "./use-api";

const PAGE_SIZE = 100;

/** One list: its members (newest first), add by hand or from a segment, remove per row or the ticked ones. */
export function ListDetail({ listId }: { listId: string }) {
  const list = useApi<ContactList>(`/api/v1/lists/${listId}`);
  const members = useApi<Page<Contact>>(`/api/v1/contacts?listId=${listId}&limit=${PAGE_SIZE}`);
  const [selected, setSelected] = React.useState<Set<string>>(new Set());
  const [dialog, setDialog] = React.useState<"search" | "segment" | null>(null);
  const rows = members.data?.data ?? [];
  const allTicked = rows.length > 0 && rows.every((row) => selected.has(row.id));

  const reload = () => {
    list.reload();
    members.reload();
  };

  async function remove(ids: string[]) {
    if (await changeMembers(listId, "DELETE", { contactIds: ids })) {
      setSelected(new Set());
      reload();
    }
  }

  function tick(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  if (list.problem) return <p role="alert" className="rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm text-destructive">{list.problem.detail}</p>;
  const count = list.data?.contactCount;

  return (
    <>
      <PageHeader
        title={list.data?.name ?? "List"}
        description={count === undefined ? "Loading…" : `${formatCount(count)} ${count === 1 ? "contact" : "contacts"}`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setDialog("segment")}><Filter aria-hidden />Add from segment</Button>
            <Button onClick={() => setDialog("search")}><UserPlus aria-hidden />Add contacts</Button>
          </div>
        }
      />
      <div className="grid gap-3">
        <div className="flex min-h-9 flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-muted-foreground">
            {rows.length < (count ?? 0) ? `Showing the newest ${formatCount(rows.length)}.` : ""}{" "}
            <Link href={`/contacts?listId=${listId}`} className="underline hover:text-foreground">Open in contacts</Link>
          </p>
          {selected.size > 0 && (
            <Button variant="outline" size="sm" onClick={() => remove([...selected])}>
              <Trash2 aria-hidden />Remove selected ({formatCount(selected.size)})
            </Button>
          )}
        </div>
        <div className="overflow-x-auto rounded-xl border" aria-busy={members.loading}>
          <Table aria-label="Members">
            <TableHeader>
              <TableRow>
                <TableHead className="w-10">
                  <input type="checkbox" className="size-4" aria-label="Select all members" checked={allTicked} onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())} />
                </TableHead>
                <TableHead>Phone</TableHead>
                <TableHead>Name</TableHead>
                <TableHead className="hidden sm:table-cell">Added to workspace</TableHead>
                <TableHead className="w-12"><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((contact) => (
                <TableRow key={contact.id}>
                  <TableCell>
                    <input type="checkbox" className="size-4" aria-label={`Select ${contact.phone}`} checked={selected.has(contact.id)} onChange={(event) => tick(contact.id, event.target.checked)} />
                  </TableCell>
                  <TableCell className="font-mono text-xs">
                    <Link href={`/contacts/${contact.id}`} className="font-medium hover:text-primary hover:underline">{contact.phone}</Link>
                  </TableCell>
                  <TableCell className="max-w-48 truncate">{contact.name ?? <span className="text-muted-foreground">—</span>}</TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell"><time dateTime={contact.createdAt}>{formatDate(contact.createdAt)}</time></TableCell>
                  <TableCell className="text-right">
                    <Button variant="ghost" size="icon" aria-label={`Remove ${contact.phone} from the list`} onClick={() => remove([contact.id])}>
                      <Trash2 aria-hidden />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {!members.loading && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} className="py-10 text-center text-muted-foreground">No one in this list yet. Add contacts by hand or from a segment.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </div>
      </div>
      {dialog === "search" && <AddMembersDialog listId={listId} open onOpenChange={(open) => !open && setDialog(null)} onChanged={reload} />}
      {dialog === "segment" && <AddFromSegmentDialog listId={listId} open onOpenChange={(open) => !open && setDialog(null)} onChanged={reload} />}
    </>
  );
}
