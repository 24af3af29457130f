"use client";

import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { changeMembers } from "./list-membership";
import type { Contact, Page, Segment } from "./types";
import { useApi } from "./use-api";

type Props = { listId: string; open: boolean; onOpenChange: (open: boolean) => void; onChanged: () => void };

/** Adds to the list, then closes the dialog and refreshes the page's members; `busy` while it runs. */
function useAddToList({ listId, onOpenChange, onChanged }: Props) {
  const [busy, setBusy] = React.useState(false);
  async function add(body: { contactIds: string[] } | { segmentId: string }) {
    setBusy(true);
    const ok = await changeMembers(listId, "POST", body);
    setBusy(false);
    if (!ok) return;
    onOpenChange(false);
    onChanged();
  }
  return { busy, add };
}

/** Search the workspace's contacts by phone or name, tick some, add them to the list. */
export function AddMembersDialog(props: Props) {
  const { open, onOpenChange } = props;
  const [search, setSearch] = React.useState("");
  const [picked, setPicked] = React.useState<Map<string, string>>(new Map());
  const { busy, add: addToList } = useAddToList(props);
  const query = search.trim();
  const results = useApi<Page<Contact>>(query ? `/api/v1/contacts?limit=20&search=${encodeURIComponent(query)}` : "/api/v1/contacts?limit=20");
  const rows = results.data?.data ?? [];

  function toggle(contact: Contact, on: boolean) {
    setPicked((current) => {
      const next = new Map(current);
      if (on) next.set(contact.id, contact.phone);
      else next.delete(contact.id);
      return next;
    });
  }

  const add = () => addToList({ contactIds: [...picked.keys()] });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add contacts</DialogTitle>
          <DialogDescription>Search by phone number or name, tick the contacts, then add them.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="member-search">Search contacts</Label>
          <Input id="member-search" type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="+1 415 or Maria" autoFocus />
        </div>
        <ul className="grid max-h-72 gap-1 overflow-y-auto rounded-lg border p-1" aria-label="Search results" aria-busy={results.loading}>
          {rows.map((contact) => (
            <li key={contact.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-accent">
                <input type="checkbox" className="size-4" checked={picked.has(contact.id)} onChange={(event) => toggle(contact, event.target.checked)} />
                <span className="font-mono text-xs">{contact.phone}</span>
                <span className="min-w-0 truncate text-muted-foreground">{contact.name ?? ""}</span>
              </label>
            </li>
          ))}
          {!results.loading && rows.length === 0 && <li className="px-2 py-4 text-center text-sm text-muted-foreground">No contacts match.</li>}
        </ul>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="button" disabled={busy || picked.size === 0} onClick={add}>
            {picked.size === 0 ? "Add to list" : `Add ${picked.size} to list`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Pick a saved segment; everyone it selects now joins the list (one statement on the server). */
export function AddFromSegmentDialog(props: Props) {
  const { open, onOpenChange } = props;
  const segments = useApi<Page<Segment>>("/api/v1/segments?limit=100");
  const [segmentId, setSegmentId] = React.useState("");
  const { busy, add: addToList } = useAddToList(props);
  const options = segments.data?.data ?? [];

  const add = () => addToList({ segmentId });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add from segment</DialogTitle>
          <DialogDescription>Everyone the segment matches right now joins the list. People already in it stay once; later matches are not added automatically.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="member-segment">Segment</Label>
          <NativeSelect id="member-segment" value={segmentId} onChange={(event) => setSegmentId(event.target.value)}>
            <option value="">Choose a segment</option>
            {options.map((segment) => (
              <option key={segment.id} value={segment.id}>{`${segment.name} (${segment.contactCount.toLocaleString("en-US")})`}</option>
            ))}
          </NativeSelect>
          {!segments.loading && options.length === 0 && <p className="text-sm text-muted-foreground">No segments yet: create one under Segments.</p>}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="button" disabled={busy || !segmentId} onClick={add}>Add segment&apos;s contacts</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
