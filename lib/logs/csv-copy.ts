// The Postgres export path: `COPY (select …) TO STDOUT WITH (FORMAT csv, HEADER)` through
// postgres.js. Formula neutralisation, status names, the template label and the timestamps are
// done in the SELECT, so Node only forwards bytes (gathered into large chunks, each row's LF
// written as CRLF). The socket is paused while the client is not reading, which pauses the query.
import type { Readable } from "node:stream";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "@/db";
import { COPY_WITHOUT_STATEMENT_TIMEOUT } from "@/db/postgres-client";
import { contacts, inboundMessages, messages } from "@/db/schema";
import { describeError } from "@/lib/logging";
import type { LogFilters } from "./filters";
import { inboundLogWhere, listsInbound, listsOutbound, logWhere, type LogScope } from "./query";
import {
  attributeColumn,
  attributeValue,
  exportOrder,
  inboundExportOrder,
  inboundMessageText,
  isoUtc,
  JOURNEY_STEP_COLUMN,
  journeyStepLabel,
  LOG_CSV_COLUMNS,
  QUOTED_COLUMNS,
  REPLY_SOURCE,
} from "./export-query";

interface CopyQuery extends PromiseLike<unknown> {
  readable(): Promise<Readable>;
  /** The backend running the query, once it runs. */
  state?: { pid?: number };
}

/** The part of a postgres.js client the export uses. */
export interface PostgresJsClient {
  unsafe(query: string, params?: unknown[]): CopyQuery;
}

/** The postgres.js client behind a drizzle database, or null on the embedded database. */
export function postgresJsClient(db: Executor): PostgresJsClient | null {
  const client = (db as { _?: { session?: { client?: unknown } } })._?.session?.client;
  if (typeof client !== "function" || typeof (client as { unsafe?: unknown }).unsafe !== "function") return null;
  return client as unknown as PostgresJsClient;
}

/** `'` prefix for a cell a spreadsheet would run as a formula (same rule as `neutraliseCell`). */
const neutralised = (value: SQL) =>
  sql`case when left((${value}), 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || (${value}) else (${value}) end`;

/** Text cell: neutralised, and empty text becomes NULL (an unquoted empty cell, as papaparse writes it). */
const textCell = (value: SQL) => sql`nullif(${neutralised(value)}, '')`;

const phoneCellOf = (phone: typeof messages.phoneNumber | typeof inboundMessages.phoneNumber) =>
  sql`case when ${phone} ~ '^[+][1-9][0-9]{6,14}$' then nullif(${phone}, '') else ${textCell(sql`${phone}`)} end`;

const statusCell = sql`case ${messages.status} when 'sending' then 'queued' else ${messages.status} end`;

const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

const NULL_TEXT = sql`null::text`;

/**
 * The SELECT that yields the CSV's cells, in column order: the messages sent and, in a campaign's
 * logs, the replies to them, merged in one keyset order (`created_at`, then id).
 */
export function copySelect(scope: LogScope, filters: LogFilters, attributeKeys: readonly string[]): SQL {
  const attributeCells = attributeKeys.map((key): [string, SQL] => [attributeColumn(key), textCell(attributeValue(key))]);
  const outboundCells: [string, SQL][] = [
    ["created_at", isoUtc(messages.createdAt)],
    ["message_id", textCell(sql`${messages.id}`)],
    ["phone_number", phoneCellOf(messages.phoneNumber)],
    ["template", textCell(sql`${messages.templateName} || ' (' || ${messages.templateLanguage} || ')'`)],
    ["message", textCell(sql`${messages.renderedText}`)],
    ["status", statusCell],
    ["error_code", textCell(sql`${messages.errorCode}`)],
    ["error_reason", textCell(sql`${messages.errorReason}`)],
    ["sent_at", isoUtc(messages.sentAt)],
    ["delivered_at", isoUtc(messages.deliveredAt)],
    ["read_at", isoUtc(messages.readAt)],
    ["replied_at", isoUtc(messages.repliedAt)],
    ["direction", sql`'outbound'`],
    ["source", sql`${messages.source}`],
    ...attributeCells,
    [JOURNEY_STEP_COLUMN, textCell(journeyStepLabel)],
  ];
  const inboundCells: [string, SQL][] = [
    ["created_at", isoUtc(inboundMessages.createdAt)],
    ["message_id", textCell(sql`${inboundMessages.id}`)],
    ["phone_number", phoneCellOf(inboundMessages.phoneNumber)],
    ["template", NULL_TEXT],
    ["message", textCell(inboundMessageText)],
    ["status", sql`'received'`],
    ["error_code", NULL_TEXT],
    ["error_reason", NULL_TEXT],
    ["sent_at", NULL_TEXT],
    ["delivered_at", NULL_TEXT],
    ["read_at", NULL_TEXT],
    ["replied_at", NULL_TEXT],
    ["direction", sql`'inbound'`],
    ["source", sql`${REPLY_SOURCE}::text`],
    ...attributeCells,
    [JOURNEY_STEP_COLUMN, NULL_TEXT],
  ];
  const columns = (cells: [string, SQL][]) =>
    sql.join(
      cells.map(([name, value]) => sql`${value} as ${sql.raw(identifier(name))}`),
      sql`, `,
    );
  const join = (contactId: typeof messages.contactId | typeof inboundMessages.contactId) =>
    attributeKeys.length ? sql`left join ${contacts} on ${contacts.id} = ${contactId}` : sql``;
  const outbound = listsOutbound(filters);
  const inbound = listsInbound(scope, filters);
  if (!inbound) {
    const where = outbound ? logWhere(scope, filters) : sql`false`;
    return sql`select ${columns(outboundCells)} from ${messages} ${join(messages.contactId)} where ${where} order by ${exportOrder}`;
  }
  const replies = sql`select ${columns(inboundCells)} from ${inboundMessages} ${join(inboundMessages.contactId)} where ${inboundLogWhere(scope, filters)}`;
  if (!outbound) return sql`${replies} order by ${inboundExportOrder}`;
  // Both: each side ordered by its own index, merged by the sort keys, which are not exported.
  const names = sql.raw(outboundCells.map(([name]) => `u.${identifier(name)}`).join(", "));
  return sql`select ${names} from (
    (select ${columns(outboundCells)}, ${messages.createdAt} as sort_at, ${messages.id} as sort_id
      from ${messages} ${join(messages.contactId)} where ${logWhere(scope, filters)} order by ${exportOrder})
    union all
    (select ${columns(inboundCells)}, ${inboundMessages.createdAt} as sort_at, ${inboundMessages.id} as sort_id
      from ${inboundMessages} ${join(inboundMessages.contactId)} where ${inboundLogWhere(scope, filters)} order by ${inboundExportOrder})
  ) u order by u.sort_at desc, u.sort_id desc`;
}

const dialect = new PgDialect();

/**
 * A parameter as a SQL literal. COPY takes no bind parameters, so values are inlined: strings as
 * E'' literals with quotes and backslashes doubled (safe whatever standard_conforming_strings says).
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = value instanceof Date ? value.toISOString() : value;
  if (typeof text !== "string") throw new Error(`Cannot inline a ${typeof value} into a COPY statement.`);
  if (text.includes("\0")) throw new Error("Cannot inline a NUL character into a COPY statement.");
  return `E'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/**
 * The full COPY statement, parameters inlined. The embedded database can run it too, into
 * `'/dev/blob'` (the whole file at once), which lets its tests compare it with the papaparse path.
 */
export function copyStatement(scope: LogScope, filters: LogFilters, attributeKeys: readonly string[], destination: "stdout" | "'/dev/blob'" = "stdout"): string {
  const { sql: text, params } = dialect.sqlToQuery(copySelect(scope, filters, attributeKeys));
  // Drizzle numbers its placeholders $1…$n; the statement's own text holds no `$` followed by a digit.
  const select = text.replace(/\$(\d+)/g, (_, index: string) => sqlLiteral(params[Number(index) - 1]));
  const quoted = [...LOG_CSV_COLUMNS.filter((column) => QUOTED_COLUMNS.has(column)), ...attributeKeys.map(attributeColumn), JOURNEY_STEP_COLUMN];
  return `copy (${select}) to ${destination} with (format csv, header, force_quote (${quoted.map(identifier).join(", ")}))`;
}

const CHUNK_BYTES = 64 * 1024;
/**
 * A client that has read nothing for this long (its connection open, its window shut) is taken for
 * gone: the export is cut short and its query cancelled. A stalled COPY holds a pool connection, and
 * neither a statement timeout nor a cancel reaches a backend blocked writing to a full socket.
 */
export const STALLED_READER_LIMIT_MS = 120_000;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Streams the COPY output. Postgres sends one CopyData message per row, which postgres.js pushes
 * as one chunk; each row's closing LF is written as CRLF while rows are gathered into 64 KiB
 * chunks. A cancelled stream (client gone) cancels the query with `pg_cancel_backend` (postgres.js
 * cannot cancel a streaming COPY itself) and discards what is still in flight, so the connection
 * goes back to the pool.
 */
export async function copyCsvStream(
  client: PostgresJsClient,
  scope: LogScope,
  filters: LogFilters,
  attributeKeys: readonly string[],
  { stalledReaderLimitMs = STALLED_READER_LIMIT_MS }: { stalledReaderLimitMs?: number } = {},
): Promise<ReadableStream<Uint8Array>> {
  const query = client.unsafe(COPY_WITHOUT_STATEMENT_TIMEOUT + copyStatement(scope, filters, attributeKeys));
  const source = await query.readable();
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  let finished = false;
  let cancelled = false;
  let stallTimer: NodeJS.Timeout | undefined;

  // Discards what is still in flight after a cancel, so the connection goes back to the pool.
  const stopQuery = () => {
    cancelled = true;
    clearTimeout(stallTimer);
    if (finished) return;
    const pid = Number(query.state?.pid);
    if (Number.isInteger(pid) && pid > 0) {
      Promise.resolve(client.unsafe("select pg_cancel_backend($1)", [pid])).then(
        () => {},
        (error: unknown) => console.error(`Logs CSV export could not cancel its query: ${describeError(error)}`),
      );
    }
    source.resume();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const flush = () => {
          if (used === 0) return;
          controller.enqueue(chunk.subarray(0, used));
          chunk = Buffer.allocUnsafe(CHUNK_BYTES);
          used = 0;
        };
        source.on("data", (row: Buffer) => {
          if (cancelled) return;
          const endsLine = row.length > 0 && row[row.length - 1] === LF;
          const size = row.length + (endsLine ? 1 : 0);
          if (used + size > chunk.length) {
            flush();
            if (size > chunk.length) chunk = Buffer.allocUnsafe(size);
          }
          if (endsLine) {
            row.copy(chunk, used, 0, row.length - 1);
            used += row.length - 1;
            chunk[used++] = CR;
            chunk[used++] = LF;
          } else {
            row.copy(chunk, used);
            used += row.length;
          }
          if (used >= CHUNK_BYTES / 2) {
            flush();
            if ((controller.desiredSize ?? 0) <= 0 && !source.isPaused()) {
              source.pause();
              stallTimer = setTimeout(() => {
                console.error(`Logs CSV export: the client read nothing for ${stalledReaderLimitMs / 1000} s; export stopped.`);
                stopQuery();
                controller.error(new Error("The client stopped reading the export."));
              }, stalledReaderLimitMs);
              stallTimer.unref();
            }
          }
        });
        source.on("end", () => {
          finished = true;
          clearTimeout(stallTimer);
          if (cancelled) return;
          flush();
          controller.close();
        });
        source.on("error", (error: Error) => {
          finished = true;
          clearTimeout(stallTimer);
          if (cancelled) return;
          // Headers are gone already: cut the download short so the client sees a failed transfer.
          console.error(`Logs CSV export failed mid-stream: ${describeError(error)}`);
          controller.error(error);
        });
      },
      pull() {
        clearTimeout(stallTimer);
        source.resume();
      },
      cancel: stopQuery,
    },
    { highWaterMark: 4 },
  );
}
