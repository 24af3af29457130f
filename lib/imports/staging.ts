// Where staged rows go: `COPY … FROM STDIN` through postgres.js on Postgres (one streamed statement,
// no per-row round trips), batched multi-row inserts on the embedded database.
import { once } from "node:events";
import type { Writable } from "node:stream";
import type { Executor } from "@/db";
import { COPY_WITHOUT_STATEMENT_TIMEOUT } from "@/db/postgres-client";
import { contactImportRows } from "@/db/schema";
import type { StagedRow } from "./rows";

export interface StagingSink {
  /** Buffers the row; a promise only when the buffer is sent and must be waited for (no promise a row: a million of them cost a second). */
  add(row: StagedRow): Promise<void> | undefined;
  finish(): Promise<void>;
  /** Stops writing after a failure; the caller deletes what was stored. */
  abort(): Promise<void>;
}

interface PostgresJsQuery {
  writable(): Promise<Writable>;
  reject?: (error: Error) => void;
}

interface PostgresJsCopy {
  unsafe(query: string): PostgresJsQuery;
}

/** The postgres.js client behind a drizzle database, or null on the embedded database. */
function postgresJsClient(db: Executor): PostgresJsCopy | null {
  const client = (db as { _?: { session?: { client?: unknown } } })._?.session?.client;
  if (typeof client !== "function" || typeof (client as { unsafe?: unknown }).unsafe !== "function") return null;
  return client as unknown as PostgresJsCopy;
}

export async function openStagingSink(db: Executor, importId: string): Promise<StagingSink> {
  const sql = postgresJsClient(db);
  return sql ? copySink(sql, importId) : batchSink(db, importId);
}

const BATCH_ROWS = 1000;

function batchSink(db: Executor, importId: string): StagingSink {
  let batch: (typeof contactImportRows.$inferInsert)[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await db.insert(contactImportRows).values(rows);
  };
  return {
    add(row) {
      batch.push({ importId, ...row });
      return batch.length >= BATCH_ROWS ? flush() : undefined;
    },
    finish: flush,
    async abort() {
      batch = [];
    },
  };
}

/** COPY text format: backslash escapes, `\N` for null. */
function copyField(value: string | null): string {
  if (value === null) return "\\N";
  if (!/[\\\t\n\r]/.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

const CHUNK_CHARS = 256 * 1024;

async function copySink(sql: PostgresJsCopy, importId: string): Promise<StagingSink> {
  let failure: Error | null = null;
  let signalFailure: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (signalFailure = reject));
  failed.catch(() => {});
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    signalFailure(error);
  };
  const query = sql.unsafe(`${COPY_WITHOUT_STATEMENT_TIMEOUT}copy contact_import_rows (import_id, row_number, phone, name, attributes, consent, error, raw) from stdin`);
  // postgres.js settles the query with the stream as the COPY starts. An error the server reports
  // after the last data (a row it refuses in the final chunk) then reaches only the query's reject,
  // a no-op on a settled promise: the stream would never finish nor fail. It is passed on here.
  const reject = query.reject;
  if (typeof reject === "function") {
    query.reject = (error) => {
      fail(error);
      reject(error);
    };
  }
  const stream = await query.writable();
  stream.on("error", fail);
  const id = copyField(importId);
  let buffer = "";
  const write = async () => {
    if (failure) throw failure;
    const chunk = buffer;
    buffer = "";
    if (!stream.write(chunk)) await Promise.race([once(stream, "drain"), failed]);
  };
  return {
    add(row) {
      buffer += `${id}\t${row.rowNumber}\t${copyField(row.phone)}\t${copyField(row.name)}\t${copyField(row.attributes && JSON.stringify(row.attributes))}\t${copyField(row.consent)}\t${copyField(row.error)}\t${copyField(row.raw)}\n`;
      return buffer.length >= CHUNK_CHARS ? write() : undefined;
    },
    async finish() {
      if (buffer) await write();
      if (failure) throw failure;
      const finished = once(stream, "finish");
      stream.end();
      await Promise.race([finished, failed]);
    },
    async abort() {
      buffer = "";
      // A COPY the server refused is over already.
      if (failure) return;
      await new Promise<void>((resolve) => {
        stream.once("close", () => resolve());
        stream.destroy(new Error("The import upload was aborted."));
        setTimeout(resolve, 1000);
      });
    },
  };
}
