import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { ExportCsvButton } from "@/components/logs/export-csv-button";
import { FilterErrors } from "@/components/logs/filter-errors";
import { FirstMessageEmptyState, NoMatchesEmptyState } from "@/components/logs/first-message";
import { LiveLogs } from "@/components/logs/live-logs";
import { LogsFilters } from "@/components/logs/logs-filters";
import { LogsPagination } from "@/components/logs/pagination";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getCampaign, getDeploymentDetails } from "@/lib/campaigns/service";
import { zodFieldErrors } from "@/lib/http/problem";
import { logListParamsSchema, searchParamsRecord } from "@/lib/logs/filters";
import { logsLinks } from "@/lib/logs/links";
import { countLogStatuses, listLogMessages } from "@/lib/logs/query";
import { requestOrigin } from "@/lib/http/request-origin";
import { orNotFound } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Campaign logs" };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function CampaignLogsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  await connection();
  const user = await requireUser();
  const { id } = await params;
  const raw = await searchParams;
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));

  const basePath = `/campaigns/${campaign.id}/logs`;
  const links = logsLinks(basePath, raw);
  const values = {
    status: first(raw.status),
    phone: first(raw.phone),
    from: first(raw.from),
    to: first(raw.to),
  };
  const header = (
    <PageHeader
      title={`${campaign.name} · Logs`}
      description="Every message this campaign sent, with its delivery status and the reason of any failure."
      actions={
        <>
          <Button asChild variant="ghost">
            <Link href={`/campaigns/${campaign.id}`}>
              <ArrowLeft aria-hidden />
              Campaign
            </Link>
          </Button>
          <ExportCsvButton action={`/api/campaigns/${campaign.id}/logs.csv`} filters={links.filters} />
        </>
      }
    />
  );
  const filterBar = <LogsFilters action={basePath} values={values} />;

  const parsed = logListParamsSchema.safeParse(searchParamsRecord(raw));
  if (!parsed.success) {
    return (
      <>
        {header}
        <div className="grid gap-5">
          {filterBar}
          <FilterErrors errors={zodFieldErrors(parsed.error)} clearHref={basePath} />
        </div>
      </>
    );
  }
  const query = parsed.data;
  const scope = { workspaceId: user.workspaceId, campaignId: campaign.id };
  const [page, counts] = await Promise.all([listLogMessages(db, scope, query), countLogStatuses(db, scope, query)]);
  // Paging back up to the top lands on the real first page (full, and live again).
  if (query.cursor?.direction === "newer" && !page.hasNewer) redirect(links.firstPage);

  const isFirstPage = !query.cursor;
  const filtered = links.filters.size > 0;
  let empty: React.ReactNode;
  if (filtered || counts.total > 0) {
    empty = <NoMatchesEmptyState clearHref={basePath} />;
  } else {
    const deployment = await getDeploymentDetails(db, user.workspaceId, campaign, await requestOrigin());
    empty = <FirstMessageEmptyState curl={deployment.curl} campaignId={campaign.id} active={campaign.status === "active"} />;
  }

  return (
    <>
      {header}
      <LiveLogs
        key={`${links.filters.toString()}|${raw.cursor ?? ""}|${page.data[0]?.id ?? ""}`}
        rows={page.data}
        counts={counts}
        statusHrefs={links.statusHrefs}
        activeStatus={query.status ?? []}
        polling={isFirstPage ? { url: `/api/campaigns/${campaign.id}/messages`, filterQuery: links.filters.toString(), prevCursor: page.prevCursor } : null}
        filters={filterBar}
        empty={empty}
        pagination={
          <LogsPagination
            newerHref={page.hasNewer ? links.page(page.prevCursor) : null}
            olderHref={links.page(page.nextCursor)}
            newestHref={isFirstPage ? null : links.firstPage}
          />
        }
      />
    </>
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
