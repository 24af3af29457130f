// The logs pages' loader (workspace logs and a campaign's logs): search params → one page of
// messages and the status counts, for LogsView to render.
import { redirect } from "next/navigation";
import type { LogsData, LogsSearchParams } from "@/components/logs/logs-view";
import type { Executor } from "@/db";
import { zodFieldErrors } from "@/lib/http/problem";
import { searchParamsRecord } from "@/lib/http/request";
import { logListParamsSchema } from "@/lib/logs/filters";
import { logsLinks } from "@/lib/logs/links";
import { countLogStatuses, listLogMessages, type LogScope } from "@/lib/logs/query";

/** Parses the logs search params and reads one page of messages plus the status counts. */
export async function loadLogs(db: Executor, scope: LogScope, basePath: string, raw: LogsSearchParams): Promise<LogsData> {
  const links = logsLinks(basePath, raw);
  const values = { status: first(raw.status), phone: first(raw.phone), from: first(raw.from), to: first(raw.to), direction: first(raw.direction), replied: first(raw.replied) };
  const parsed = logListParamsSchema.safeParse(searchParamsRecord(raw));
  if (!parsed.success) {
    return { ok: false, basePath, links, values, selectionKey: "", errors: zodFieldErrors(parsed.error) };
  }
  const query = parsed.data;
  const [page, counts] = await Promise.all([listLogMessages(db, scope, query), countLogStatuses(db, scope, query)]);
  // Paging back up to the top lands on the real first page (full, and live again).
  if (query.cursor?.direction === "newer" && !page.hasNewer) redirect(links.firstPage);
  return {
    ok: true,
    basePath,
    links,
    values,
    selectionKey: `${links.filters.toString()}|${first(raw.cursor) ?? ""}|${page.data[0]?.id ?? ""}`,
    query,
    page,
    counts,
    noMessages: links.filters.size === 0 && counts.total === 0,
  };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
