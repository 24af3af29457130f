import { FileText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { FilterErrors } from "@/components/logs/filter-errors";
import { NoMatchesEmptyState } from "@/components/logs/first-message";
import { LiveLogs } from "@/components/logs/live-logs";
import { LogsFilters } from "@/components/logs/logs-filters";
import { LogsPagination } from "@/components/logs/pagination";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listLogsCampaignOptions } from "@/lib/logs/campaign";
import { zodFieldErrors } from "@/lib/http/problem";
import { logListParamsSchema, searchParamsRecord } from "@/lib/logs/filters";
import { logsHref, logsLinks } from "@/lib/logs/links";
import { countLogStatuses, listLogMessages } from "@/lib/logs/query";

export const metadata: Metadata = { title: "Logs" };

type SearchParams = Record<string, string | string[] | undefined>;

/** Recent messages of every campaign; picking a campaign opens its own logs (live, with export). */
export default async function LogsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const user = await requireUser();
  const raw = await searchParams;
  const db = await getDb();
  const campaigns = await listLogsCampaignOptions(db, user.workspaceId);
  const links = logsLinks("/logs", raw);

  const picked = typeof raw.campaign === "string" ? campaigns.find((campaign) => campaign.id === raw.campaign) : undefined;
  if (picked) redirect(logsHref(`/campaigns/${picked.id}/logs`, links.filters));

  const header = (
    <PageHeader
      title="Logs"
      description="Every message your campaigns send, with its delivery status and any error. Pick a campaign for live updates and CSV export."
    />
  );
  if (campaigns.length === 0) {
    return (
      <>
        {header}
        <EmptyState
          icon={<FileText aria-hidden />}
          title="No messages yet"
          description="Messages appear here as soon as a deployed campaign is triggered. Create and deploy a campaign, then call its webhook to send the first one."
          action={
            <Link href="/campaigns" className="text-sm text-primary underline-offset-4 hover:underline">
              Go to campaigns
            </Link>
          }
        />
      </>
    );
  }

  const filterBar = (
    <LogsFilters
      action="/logs"
      campaigns={campaigns}
      values={{ status: first(raw.status), phone: first(raw.phone), from: first(raw.from), to: first(raw.to) }}
    />
  );
  const parsed = logListParamsSchema.safeParse(searchParamsRecord(raw));
  if (!parsed.success) {
    return (
      <>
        {header}
        <div className="grid gap-5">
          {filterBar}
          <FilterErrors errors={zodFieldErrors(parsed.error)} clearHref="/logs" />
        </div>
      </>
    );
  }
  const query = parsed.data;
  const scope = { workspaceId: user.workspaceId };
  const [page, counts] = await Promise.all([listLogMessages(db, scope, query), countLogStatuses(db, scope, query)]);
  if (query.cursor?.direction === "newer" && !page.hasNewer) redirect(links.firstPage);

  const empty =
    links.filters.size > 0 ? (
      <NoMatchesEmptyState clearHref="/logs" />
    ) : (
      <EmptyState
        icon={<FileText aria-hidden />}
        title="No messages yet"
        description="Messages appear here as soon as a deployed campaign is triggered. Open a campaign's logs for a ready-to-run curl example."
      />
    );
  return (
    <>
      {header}
      <LiveLogs
        key={`${links.filters.toString()}|${raw.cursor ?? ""}|${page.data[0]?.id ?? ""}`}
        rows={page.data}
        counts={counts}
        statusHrefs={links.statusHrefs}
        activeStatus={query.status ?? []}
        polling={null}
        campaignNames={Object.fromEntries(campaigns.map((campaign) => [campaign.id, campaign.name]))}
        filters={filterBar}
        empty={empty}
        pagination={
          <LogsPagination
            newerHref={page.hasNewer ? links.page(page.prevCursor) : null}
            olderHref={links.page(page.nextCursor)}
            newestHref={query.cursor ? links.firstPage : null}
          />
        }
      />
    </>
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
