"use client";

import { ListPlus, MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { formatCount, formatDate } from "./format";
import { ListNameDialog } from "./list-name-dialog";
import type { ContactList, Page } from "./types";
import { useApi } from "./use-api";

/** Lists with their member counts: create, rename, delete. */
export function ListsManager() {
  const { data, loading, problem, reload } = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const [creating, setCreating] = React.useState(false);
  const [renaming, setRenaming] = React.useState<ContactList | null>(null);
  const [deleting, setDeleting] = React.useState<ContactList | null>(null);
  const lists = data?.data ?? [];

  async function remove(list: ContactList) {
    const result = await requestJson(`/api/v1/lists/${list.id}`, { method: "DELETE" });
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(`${list.name} deleted.`);
    reload();
  }

  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <ListPlus aria-hidden />
      New list
    </Button>
  );

  return (
    <div className="grid gap-4">
      {problem && <p role="alert" className="text-sm text-destructive">{problem.detail}</p>}
      {!loading && !problem && lists.length === 0 ? (
        <EmptyState
          icon={<ListPlus aria-hidden />}
          title="No lists yet"
          description="Lists are static audiences for bulk campaigns. Create one here, or let an import fill a new list."
          action={newButton}
        />
      ) : (
        <>
          <div className="flex justify-end">{newButton}</div>
          <div className="overflow-hidden rounded-xl border">
            <Table aria-label="Lists">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead className="text-right">Contacts</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead className="w-12"><span className="sr-only">Actions</span></TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {lists.map((list) => (
                  <TableRow key={list.id}>
                    <TableCell className="max-w-72 truncate font-medium">
                      <Link href={`/contacts/lists/${list.id}`} className="hover:text-primary hover:underline">{list.name}</Link>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatCount(list.contactCount)}</TableCell>
                    <TableCell className="text-muted-foreground"><time dateTime={list.createdAt}>{formatDate(list.createdAt)}</time></TableCell>
                    <TableCell className="text-right">
                      <DropdownMenu>
                        <DropdownMenuTrigger asChild>
                          <Button variant="ghost" size="icon" aria-label={`Actions for ${list.name}`}><MoreHorizontal aria-hidden /></Button>
                        </DropdownMenuTrigger>
                        <DropdownMenuContent align="end">
                          <DropdownMenuItem onSelect={() => setRenaming(list)}><Pencil aria-hidden />Rename</DropdownMenuItem>
                          <DropdownMenuItem onSelect={() => setDeleting(list)} className="text-destructive focus:text-destructive"><Trash2 aria-hidden />Delete</DropdownMenuItem>
                        </DropdownMenuContent>
                      </DropdownMenu>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
      {creating && <ListNameDialog open onOpenChange={setCreating} onSaved={reload} />}
      {renaming && <ListNameDialog key={renaming.id} open list={renaming} onOpenChange={(open) => !open && setRenaming(null)} onSaved={reload} />}
      <AlertDialog open={Boolean(deleting)} onOpenChange={(open) => !open && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {deleting?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              The list goes; its {formatCount(deleting?.contactCount ?? 0)} contacts stay in the workspace. Segments that use this list no longer match it.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => deleting && remove(deleting)}>Delete list</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
