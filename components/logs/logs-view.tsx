import type * as React from "react";
import { PageHeader } from "@/components/ui/page-header";
import type { FieldError } from "@/lib/http/errors";
import type { LogsCampaignOption } from "@/lib/logs/campaign";
import type { LogListParams } from "@/lib/logs/filters";
import type { logsLinks } from "@/lib/logs/links";
import { MAX_SEND_ATTEMPTS } from "@/lib/messaging/errors";
import type { LogPage } from "@/lib/logs/query";
import type { StatusCounts } from "@/lib/statuses/messages";
import { ExportCsvButton } from "./export-csv-button";
import { FilterErrors } from "./filter-errors";
import { NoMatchesEmptyState } from "./first-message";
import { LiveLogs } from "./live-logs";
import { LogsFilters, type LogsFilterValues } from "./logs-filters";
import { LogsPagination } from "./pagination";

/** The filters set in the URL (status, phone, dates, campaign, direction, replied). */
function activeFilterCount(values: LogsFilterValues): number {
  return [values.status, values.phone, values.from, values.to, values.campaign, values.direction, values.replied].filter(Boolean).length;
}

export type LogsSearchParams = Record<string, string | string[] | undefined>;

interface LogsBase {
  /** The page's own path; filter, status and pagination links stay on it. */
  basePath: string;
  links: ReturnType<typeof logsLinks>;
  values: LogsFilterValues;
  /** Remounts the live table whenever the server renders another selection. */
  selectionKey: string;
}

export type LogsData =
  | (LogsBase & { ok: false; errors: FieldError[] })
  | (LogsBase & {
      ok: true;
      query: LogListParams;
      page: LogPage;
      counts: StatusCounts;
      /** No filters and not a single message in scope: the page explains how to get the first one. */
      noMessages: boolean;
    });

/**
 * The logs of one campaign or of the whole workspace: header, status counts, filters, the messages
 * table and keyset pagination. A campaign's logs also export CSV and, on the first page, poll for
 * new messages.
 */
export function LogsView({
  data,
  title,
  description,
  actions,
  banner,
  campaignId,
  campaigns,
  noMessages,
}: {
  data: LogsData;
  title: string;
  description: string;
  /** Header actions shown before Export CSV. */
  actions?: React.ReactNode;
  /** A warning shown under the header (the failing-sender banner). */
  banner?: React.ReactNode;
  /** Set on a campaign's logs: live updates and CSV export through its /api/v1 routes. */
  campaignId?: string;
  /** Set on the workspace-wide logs: a campaign filter and a campaign column. */
  campaigns?: LogsCampaignOption[];
  /** Shown when there are no messages at all (rather than none matching the filters). */
  noMessages: React.ReactNode;
}) {
  const { basePath, links } = data;
  const exportButton = campaignId ? <ExportCsvButton action={`/api/v1/campaigns/${campaignId}/logs.csv`} filters={links.filters} /> : null;
  const header = (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          actions || exportButton ? (
            <>
              {actions}
              {exportButton}
            </>
          ) : undefined
        }
      />
      {banner && <div className="mb-5">{banner}</div>}
    </>
  );
  const filterBar = <LogsFilters action={basePath} values={data.values} campaigns={campaigns} directions={!campaigns} />;
  // Phones open the same form in a sheet; its own ids keep each label tied to its own field.
  const sheetFilterBar = <LogsFilters action={basePath} values={data.values} campaigns={campaigns} directions={!campaigns} idPrefix="logs-sheet" />;

  if (!data.ok) {
    return (
      <>
        {header}
        <div className="grid gap-5">
          {filterBar}
          <FilterErrors errors={data.errors} clearHref={basePath} />
        </div>
      </>
    );
  }

  const { query, page } = data;
  const isFirstPage = !query.cursor;
  return (
    <>
      {header}
      <LiveLogs
        key={data.selectionKey}
        rows={page.data}
        counts={data.counts}
        statusHrefs={links.statusHrefs}
        activeStatus={query.replied === undefined ? (query.status ?? []) : []}
        repliedHref={links.repliedHref}
        repliedActive={query.replied === true && !query.status?.length}
        polling={
          campaignId && isFirstPage
            ? { url: `/api/v1/campaigns/${campaignId}/messages`, filterQuery: links.filters.toString(), prevCursor: page.prevCursor }
            : null
        }
        campaignNames={campaigns && Object.fromEntries(campaigns.map((campaign) => [campaign.id, campaign.name]))}
        filters={filterBar}
        sheetFilters={sheetFilterBar}
        activeFilters={activeFilterCount(data.values)}
        maxAttempts={MAX_SEND_ATTEMPTS}
        empty={data.noMessages ? noMessages : <NoMatchesEmptyState clearHref={basePath} />}
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

