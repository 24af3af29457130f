"use client";

import Link from "next/link";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { ContactList, Segment } from "./types";

export interface ContactsQuery {
  search?: string;
  listId?: string;
  segmentId?: string;
  optedOut?: string;
  cursor?: string;
}

/** A plain GET form: the filters live in the URL, so they are shareable and the back button works. */
export function ContactsFilters({ values, lists, segments }: { values: Omit<ContactsQuery, "cursor">; lists: ContactList[]; segments: Segment[] }) {
  const active = Boolean(values.search || values.listId || values.segmentId || values.optedOut);
  // Controlled: the options arrive after the first render, and an uncontrolled default would be lost.
  const [listId, setListId] = React.useState(values.listId ?? "");
  const [segmentId, setSegmentId] = React.useState(values.segmentId ?? "");
  return (
    <form
      method="get"
      action="/contacts"
      role="search"
      aria-label="Filter contacts"
      className="flex flex-wrap items-end gap-3 rounded-xl border bg-card p-4 shadow-xs"
    >
      <div className="grid min-w-52 flex-[2] gap-1.5">
        <label htmlFor="contacts-search" className="text-xs font-medium text-muted-foreground">Search</label>
        <Input id="contacts-search" name="search" type="search" placeholder="Phone in any format, or name" defaultValue={values.search ?? ""} />
      </div>
      <div className="grid min-w-40 flex-1 gap-1.5">
        <label htmlFor="contacts-list" className="text-xs font-medium text-muted-foreground">List</label>
        <NativeSelect id="contacts-list" name="listId" value={listId} onChange={(event) => setListId(event.target.value)}>
          <option value="">All lists</option>
          {lists.map((list) => (
            <option key={list.id} value={list.id}>{list.name}</option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid min-w-40 flex-1 gap-1.5">
        <label htmlFor="contacts-segment" className="text-xs font-medium text-muted-foreground">Segment</label>
        <NativeSelect id="contacts-segment" name="segmentId" value={segmentId} onChange={(event) => setSegmentId(event.target.value)}>
          <option value="">All segments</option>
          {segments.map((segment) => (
            <option key={segment.id} value={segment.id}>{segment.name}</option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid min-w-32 flex-1 gap-1.5">
        <label htmlFor="contacts-consent" className="text-xs font-medium text-muted-foreground">Consent</label>
        <NativeSelect id="contacts-consent" name="optedOut" defaultValue={values.optedOut ?? ""}>
          <option value="">Anyone</option>
          <option value="false">Not unsubscribed</option>
          <option value="true">Unsubscribed</option>
        </NativeSelect>
      </div>
      <div className="flex gap-2">
        <Button type="submit">Apply filters</Button>
        {active && (
          <Button asChild variant="ghost">
            <Link href="/contacts">Clear</Link>
          </Button>
        )}
      </div>
    </form>
  );
}
