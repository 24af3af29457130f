// URLs of the logs pages that keep the current filters (status tiles, pagination, export).
import { filtersToSearchParams } from "./filters";
import { LOG_STATUSES, type LogStatus } from "./status";

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
  const statusHrefs = Object.fromEntries(LOG_STATUSES.map((status) => [status, withParams({ status })])) as Record<LogStatus, string>;
  return {
    filters,
    firstPage: logsHref(basePath, filters),
    page: (cursor: string | null) => (cursor ? withParams({ cursor }) : null),
    statusHrefs,
  };
}
