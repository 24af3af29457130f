// CSV export of campaign logs: UTF-8, one header row, CRLF line ends, quotes doubled inside quoted
// cells. On Postgres the database writes the file (`COPY … TO STDOUT`, see csv-copy.ts); on the
// embedded database papaparse writes it batch by batch. Both paths give byte-identical files:
// the free-text columns are quoted whole when not empty, empty cells are never quoted.
import Papa from "papaparse";
import { z } from "zod";
import type { Executor } from "@/db";
import type { LogFilters } from "./filters";
import type { LogScope } from "./query";
import { toLogStatus } from "@/lib/statuses/messages";
import { describeError } from "@/lib/logging";
import { copyCsvStream, postgresJsClient } from "./csv-copy";
import { EXPORT_BATCH_SIZE, exportColumnNames, QUOTED_COLUMNS, rawExportBatches, type RawExportRow } from "./export-query";

export { JOURNEY_STEP_COLUMN, LOG_CSV_COLUMNS } from "./export-query";

const NEWLINE = "\r\n";
/** Characters that make Excel, Sheets or LibreOffice read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const E164 = /^\+[1-9]\d{6,14}$/;

/** A cell a spreadsheet would evaluate gets a leading apostrophe, so it is shown as text. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Phone numbers keep their `+` when they are well-formed E.164; anything else is neutralised. */
export function phoneCell(value: string): string {
  return E164.test(value) ? value : neutraliseCell(value);
}

/** How the `template` column names a template: `order_update (en_US)`. */
export function templateLabel(name: string, language: string): string {
  return `${name} (${language})`;
}

/** The cells of one row, in column order; empty text is null (written as an unquoted empty cell). */
export function toCsvRecord(row: RawExportRow): (string | null)[] {
  const text = (value: string | null) => (value ? neutraliseCell(value) : null);
  return [
    row.createdAt,
    text(row.id),
    row.phoneNumber ? phoneCell(row.phoneNumber) : null,
    row.templateName === null ? null : text(templateLabel(row.templateName, row.templateLanguage ?? "")),
    text(row.renderedText),
    row.status === "received" ? row.status : toLogStatus(row.status),
    text(row.errorCode),
    text(row.errorReason),
    row.sentAt,
    row.deliveredAt,
    row.readAt,
    row.repliedAt,
    row.direction,
    row.source,
    ...row.attributes.map(text),
    text(row.journeyStep),
  ];
}

function unparseOptions(columns: readonly string[], newline: string) {
  return { header: false, newline, quotes: columns.map(isQuotedColumn), skipEmptyLines: false } as const;
}

function isQuotedColumn(column: string): boolean {
  return QUOTED_COLUMNS.has(column) || column.startsWith("attributes.");
}

export function csvHeaderLine(attributeKeys: readonly string[] = []): string {
  return exportColumnNames(attributeKeys).join(",") + NEWLINE;
}

/** CSV lines for a batch of rows, each terminated by CRLF (or `newline`). */
export function csvLines(rows: RawExportRow[], attributeKeys: readonly string[] = [], newline = NEWLINE): string {
  if (!rows.length) return "";
  return Papa.unparse(rows.map(toCsvRecord), unparseOptions(exportColumnNames(attributeKeys), newline)) + newline;
}

const attributesFlag = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.enum(["true", "false"], { error: "Use attributes=true to add the campaign's mapped contact attributes as columns, or attributes=false." }).optional(),
);

/** `?attributes=true` (off by default): one column per mapped contact attribute after the fixed ones. */
export function parseAttributesFlag(params: URLSearchParams): boolean {
  return z.object({ attributes: attributesFlag }).parse({ attributes: params.get("attributes") ?? undefined }).attributes === "true";
}

const includeTestsFlag = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.enum(["true", "false"], { error: "Use include_tests=true to add test sends to the export, or include_tests=false (the default)." }).optional(),
);

/** `?include_tests=true` (off by default): the export leaves test sends out, as the counts do. */
export function parseIncludeTestsFlag(params: URLSearchParams): boolean {
  return z.object({ include_tests: includeTestsFlag }).parse({ include_tests: params.get("include_tests") ?? undefined }).include_tests === "true";
}

export interface LogsCsvOptions {
  /** Contact attributes to add as columns after the fixed ones (`attributes.<key>`). */
  attributeKeys?: readonly string[];
  /** Rows per query on the embedded path. */
  batchSize?: number;
}

/**
 * The export as a byte stream: COPY on Postgres, papaparse on the embedded database. The query
 * starts before this resolves, so a database failure still becomes an error response; after that
 * the database is read only as fast as the client consumes the stream.
 */
export async function logsCsvStream(db: Executor, scope: LogScope, filters: LogFilters, options: LogsCsvOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const client = postgresJsClient(db);
  if (client) return copyCsvStream(client, scope, filters, options.attributeKeys ?? []);
  return papaparseCsvStream(db, scope, filters, options);
}

/**
 * The embedded path. The first batch is read before this resolves; later batches are read only
 * as the client consumes the stream (pull), and a cancelled stream (client gone) stops reading.
 */
export async function papaparseCsvStream(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  options: LogsCsvOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const attributeKeys = options.attributeKeys ?? [];
  const encoder = new TextEncoder();
  const batches = rawExportBatches(db, scope, filters, attributeKeys, options.batchSize ?? EXPORT_BATCH_SIZE);
  const first = await batches.next();
  let done = first.done === true;
  let firstChunk: string | null = csvHeaderLine(attributeKeys) + (first.done ? "" : csvLines(first.value, attributeKeys));

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (firstChunk !== null) {
          controller.enqueue(encoder.encode(firstChunk));
          firstChunk = null;
          if (done) controller.close();
          return;
        }
        try {
          const next = await batches.next();
          if (next.done) {
            done = true;
            controller.close();
          } else {
            controller.enqueue(encoder.encode(csvLines(next.value, attributeKeys)));
          }
        } catch (error) {
          // Headers are gone already: all that is left is to log it and cut the download short, so
          // the client sees a failed transfer rather than a file that silently ends early.
          console.error(`Logs CSV export failed mid-stream: ${describeError(error)}`);
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/** `Spring Sale — VIP!` → `spring-sale-vip`. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || "campaign";
}

/** `<campaign-name-slug>-logs-<yyyy-mm-dd>.csv`, dated in UTC. */
export function logsCsvFileName(campaignName: string, now = new Date()): string {
  return `${slugify(campaignName)}-logs-${now.toISOString().slice(0, 10)}.csv`;
}
