// URLs of the logs pages that keep the current filters (status tiles, pagination, export).
import { filtersToSearchParams } from "./filters";
import { FUNNEL_STEP_STATUSES, LOG_STATUSES, type LogStatus } from "@/lib/statuses/messages";

type RawParams = Record<string, string | string[] | undefined>;

export function logsHref(basePath: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${basePath}?${query}` : basePath;
}

export function logsLinks(basePath: string, raw: RawParams) {
  const filters = filtersToSearchParams(raw);
  const withParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(filters);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    return logsHref(basePath, next);
  };
  // Each tile lists the messages it counts: "Sent" is sent, delivered or read (the funnel). A tile
  // is one selection: a status tile drops the replied filter and the Replied tile the status one.
  const statusHrefs = Object.fromEntries(
    LOG_STATUSES.map((status) => [status, withParams({ status: FUNNEL_STEP_STATUSES[status].join(","), replied: null })]),
  ) as Record<LogStatus, string>;
  const repliedHref = withParams({ replied: "true", status: null, direction: null });
  return {
    filters,
    firstPage: logsHref(basePath, filters),
    page: (cursor: string | null) => (cursor ? withParams({ cursor }) : null),
    statusHrefs,
    repliedHref,
  };
}
