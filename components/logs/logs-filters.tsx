import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { statusFilterOptions } from "@/lib/statuses/messages";

const selectClass =
  "flex h-9 w-full rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs outline-none focus-visible:border-primary/60 focus-visible:ring-[3px] focus-visible:ring-ring";

export interface LogsFilterValues {
  status?: string;
  phone?: string;
  from?: string;
  to?: string;
  campaign?: string;
  direction?: string;
  replied?: string;
}

/**
 * The filter bar: a plain GET form, so filters live in the URL (shareable, back button works)
 * and the page renders them on the server. Changing a filter starts again at the newest message.
 */
export function LogsFilters({
  action,
  values,
  campaigns,
  directions = false,
  idPrefix = "logs",
}: {
  action: string;
  values: LogsFilterValues;
  /** On the workspace-wide page: the campaigns to filter by. */
  campaigns?: { id: string; name: string }[];
  /** A campaign's logs list replies too: filter by direction. */
  directions?: boolean;
  /** Prefix of the fields' ids: the phone's filters sheet renders a second copy of the form. */
  idPrefix?: string;
}) {
  const active = Boolean(values.status || values.phone || values.from || values.to || values.campaign || values.direction || values.replied);
  const status = statusFilterOptions(values.status);
  return (
    <form method="get" action={action} role="search" aria-label="Filter messages" className="flex flex-wrap items-end gap-3 rounded-xl border bg-card p-4 shadow-xs">
      {campaigns && (
        <div className="grid min-w-48 flex-1 gap-1.5">
          <label htmlFor={`${idPrefix}-campaign`} className="text-xs font-medium text-muted-foreground">Campaign</label>
          <select id={`${idPrefix}-campaign`} name="campaign" defaultValue={values.campaign ?? ""} className={selectClass}>
            <option value="">All campaigns</option>
            {campaigns.map((campaign) => (
              <option key={campaign.id} value={campaign.id}>{campaign.name}</option>
            ))}
          </select>
        </div>
      )}
      {directions && (
        <div className="grid min-w-36 gap-1.5">
          <label htmlFor={`${idPrefix}-direction`} className="text-xs font-medium text-muted-foreground">Direction</label>
          <select id={`${idPrefix}-direction`} name="direction" defaultValue={values.direction ?? ""} className={selectClass}>
            <option value="">Outgoing and incoming</option>
            <option value="outbound">Outgoing</option>
            <option value="inbound">Incoming (replies)</option>
          </select>
        </div>
      )}
      <div className="grid min-w-36 gap-1.5">
        <label htmlFor={`${idPrefix}-status`} className="text-xs font-medium text-muted-foreground">Status</label>
        <select id={`${idPrefix}-status`} name="status" defaultValue={status.selected} className={selectClass}>
          <option value="">All statuses</option>
          {status.options.map((option) => (
            <option key={option.value} value={option.value}>{option.label}</option>
          ))}
        </select>
      </div>
      <div className="grid min-w-36 gap-1.5">
        <label htmlFor={`${idPrefix}-replied`} className="text-xs font-medium text-muted-foreground">Replied</label>
        <select id={`${idPrefix}-replied`} name="replied" defaultValue={values.replied ?? ""} className={selectClass}>
          <option value="">With or without a reply</option>
          <option value="true">Replied to</option>
          <option value="false">Not replied to</option>
        </select>
      </div>
      <div className="grid min-w-44 flex-1 gap-1.5">
        <label htmlFor={`${idPrefix}-phone`} className="text-xs font-medium text-muted-foreground">Phone number</label>
        <Input id={`${idPrefix}-phone`} name="phone" type="search" inputMode="tel" placeholder="e.g. +1 415 555" defaultValue={values.phone ?? ""} />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${idPrefix}-from`} className="text-xs font-medium text-muted-foreground">From (UTC)</label>
        <Input id={`${idPrefix}-from`} name="from" type="date" defaultValue={values.from ?? ""} className="w-40" />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${idPrefix}-to`} className="text-xs font-medium text-muted-foreground">To (UTC)</label>
        <Input id={`${idPrefix}-to`} name="to" type="date" defaultValue={values.to ?? ""} className="w-40" />
      </div>
      <div className="flex gap-2">
        <Button type="submit">Apply filters</Button>
        {active && (
          <Button asChild variant="ghost">
            <Link href={action}>Clear</Link>
          </Button>
        )}
      </div>
    </form>
  );
}
