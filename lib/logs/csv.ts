// CSV export of campaign logs: RFC 4180 (papaparse, CRLF, quotes doubled), UTF-8, one header row,
// streamed batch by batch so memory stays flat whatever the number of messages.
import Papa from "papaparse";
import type { Executor } from "@/db";
import { exportBatches, EXPORT_BATCH_SIZE, type ExportRow, type LogScope } from "./query";
import type { LogFilters } from "./filters";
import { toLogStatus } from "./status";
import { describeError } from "@/lib/logging";

export const LOG_CSV_COLUMNS = [
  "created_at",
  "message_id",
  "phone_number",
  "template",
  "message",
  "status",
  "error_code",
  "error_reason",
  "sent_at",
  "delivered_at",
  "read_at",
] as const;

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

export function toCsvRecord(row: ExportRow): string[] {
  return [
    row.createdAt,
    neutraliseCell(row.id),
    phoneCell(row.phoneNumber),
    neutraliseCell(templateLabel(row.templateName, row.templateLanguage)),
    neutraliseCell(row.renderedText),
    toLogStatus(row.status),
    neutraliseCell(row.errorCode ?? ""),
    neutraliseCell(row.errorReason ?? ""),
    row.sentAt ?? "",
    row.deliveredAt ?? "",
    row.readAt ?? "",
  ];
}

const unparseOptions = { header: false, newline: NEWLINE, quotes: false, skipEmptyLines: false } as const;

export function csvHeaderLine(): string {
  return Papa.unparse([LOG_CSV_COLUMNS as unknown as string[]], unparseOptions) + NEWLINE;
}

/** CSV lines for a batch of rows, each terminated by CRLF. */
export function csvLines(rows: ExportRow[]): string {
  if (!rows.length) return "";
  return Papa.unparse(rows.map(toCsvRecord), unparseOptions) + NEWLINE;
}

/**
 * The export as a byte stream. The first batch is read before this resolves, so a database
 * failure still becomes an error response; later batches are read only as the client consumes
 * the stream (pull), and a cancelled stream (client gone) stops reading at once.
 */
export async function logsCsvStream(
  db: Executor,
  scope: LogScope,
  filters: LogFilters,
  options: { batchSize?: number } = {},
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const batches = exportBatches(db, scope, filters, options.batchSize ?? EXPORT_BATCH_SIZE);
  const first = await batches.next();
  let done = first.done === true;
  let firstChunk: string | null = csvHeaderLine() + (first.done ? "" : csvLines(first.value));

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
            controller.enqueue(encoder.encode(csvLines(next.value)));
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
