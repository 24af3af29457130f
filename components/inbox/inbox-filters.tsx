"use client";

import { Search } from "lucide-react";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import type { InboxContext, InboxFilters } from "./types";

const ASSIGNED: { value: InboxFilters["assigned"]; label: string }[] = [
  { value: "unassigned", label: "Unassigned" },
  { value: "mine", label: "Mine" },
  { value: "all", label: "All" },
];

/** Unassigned / Mine / All, search, status, number (when there are several), campaign and unread only. */
export function InboxFiltersBar({
  filters,
  onChange,
  context,
}: {
  filters: InboxFilters;
  onChange: React.Dispatch<React.SetStateAction<InboxFilters>>;
  context: InboxContext;
}) {
  const [search, setSearch] = React.useState(filters.search);
  React.useEffect(() => {
    const timer = setTimeout(() => onChange((previous) => (previous.search === search ? previous : { ...previous, search })), 300);
    return () => clearTimeout(timer);
  }, [search, onChange]);
  const set = (patch: Partial<InboxFilters>) => onChange((previous) => ({ ...previous, ...patch }));

  return (
    <div className="grid gap-2">
      <div role="group" aria-label="Assigned to" className="grid grid-cols-3 rounded-lg bg-muted p-0.5">
        {ASSIGNED.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={filters.assigned === option.value}
            onClick={() => set({ assigned: option.value })}
            className={cn(
              "rounded-md px-2 py-1 text-sm text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring",
              filters.assigned === option.value && "bg-background font-medium text-foreground shadow-xs",
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input type="search" aria-label="Search by phone or name" placeholder="Search by phone or name" value={search} onChange={(event) => setSearch(event.target.value)} className="pl-8" />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <NativeSelect aria-label="Status" value={filters.status} onChange={(event) => set({ status: event.target.value as InboxFilters["status"] })} className="w-28">
          <option value="open">Open</option>
          <option value="closed">Closed</option>
          <option value="all">Open and closed</option>
        </NativeSelect>
        {context.senders.length > 1 && (
          <NativeSelect aria-label="Number" value={filters.senderId} onChange={(event) => set({ senderId: event.target.value })} className="min-w-0 flex-1">
            <option value="">Every number</option>
            {context.senders.map((sender) => (
              <option key={sender.id} value={sender.id}>
                {sender.label}
              </option>
            ))}
          </NativeSelect>
        )}
        {context.campaigns.length > 0 && (
          <NativeSelect aria-label="Campaign" value={filters.campaignId} onChange={(event) => set({ campaignId: event.target.value })} className="min-w-0 flex-1">
            <option value="">Any campaign</option>
            {context.campaigns.map((campaign) => (
              <option key={campaign.id} value={campaign.id}>
                {campaign.name}
              </option>
            ))}
          </NativeSelect>
        )}
        <label className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap">
          <input type="checkbox" checked={filters.unread} onChange={(event) => set({ unread: event.target.checked })} className="size-4 accent-primary" />
          Unread only
        </label>
      </div>
    </div>
  );
}
