// Storing an import's file: the request body streamed through papaparse (never held in memory, nor
// any line longer than the record cap), each record mapped to a staged row, the rows streamed into
// `contact_import_rows`.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contactImportRows, contactImports, type ConsentStatus } from "@/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { payloadTooLarge } from "@/lib/http/body";
import { isStorableText } from "@/lib/http/storable-text";
import { describeError } from "@/lib/logging";
import { claimOwnerFor } from "@/lib/messaging/owner";
import { csvRecords, MAX_RECORD_CHARS, RecordTooLong } from "./csv";
import { defaultColumns, headerMismatches, parseConsentCell, rowMapper, tooLongRow } from "./rows";
import { importOptionsSchema, MAX_IMPORT_FILE_BYTES, type ImportOptions } from "./schemas";
import { openStagingSink, type StagingSink } from "./staging";

/** What a job keeps in `contact_imports.options`: the options, and the file's header once read. */
export interface StoredOptions extends ImportOptions {
  /** Set for a CSV body sent without a mapping: the columns come from the header. */
  autoColumns?: boolean;
  header?: string[];
  /**
   * Set for a CSV body of `POST /contacts/bulk`: consent is the caller's, as in its JSON form (source
   * `api` with the key's name, or `manual` with the user's email; rule `direct`), not an import's.
   */
  consentChange?: { source: "api" | "manual"; detail: string | null };
}

const PROGRESS_EVERY_ROWS = 20_000;
const missing = () => notFound("No import with this id exists in your workspace.");

/** The reason a job shows when its file could not be stored (the cause is logged). */
export const STORE_FAILED_REASON = "The file could not be stored on the server; nothing was imported. Create the import again.";

/** A failure of the database while staging rows, as opposed to a fault in the file or its upload. */
class StagingFailure extends Error {}

function reportingFailures(sink: StagingSink): StagingSink {
  const failed = (error: unknown) => Promise.reject(new StagingFailure("Staging the rows failed.", { cause: error }));
  return {
    add(row) {
      try {
        return sink.add(row)?.catch(failed);
      } catch (error) {
        return failed(error);
      }
    },
    finish: () => sink.finish().catch(failed),
    abort: () => sink.abort(),
  };
}

/**
 * The body as text: 413 past `limitBytes`, 422 at the first byte sequence that is not UTF-8 (a file
 * saved in another encoding would otherwise import with its accented letters replaced).
 */
async function* utf8Text(source: AsyncIterable<Uint8Array>, limitBytes: number): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let total = 0;
  let lineBreaks = 0;
  let held: Uint8Array = new Uint8Array(0);
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > limitBytes) throw payloadTooLarge(limitBytes);
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8(lineBreaks + lineBreaksBeforeInvalid(concat(held, chunk)) + 1);
    }
    held = incompleteCharacter(concat(held.subarray(-3), chunk.subarray(-3)));
    lineBreaks += countLineBreaks(text);
    if (text) yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw notUtf8(lineBreaks + 1);
  }
  if (rest) yield rest;
}

function notUtf8(line: number): ApiError {
  return validationFailed(
    [{ path: "file", code: "invalid_encoding", message: `Line ${line} holds bytes that are not UTF-8 text.` }],
    `The file is not UTF-8 text (line ${line}). Save it as "CSV UTF-8" and send it again.`,
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** The bytes of a character cut by the end of the chunk, which the decoder holds until the next one. */
function incompleteCharacter(bytes: Uint8Array): Uint8Array {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
    const byte = bytes[i]!;
    if (byte < 0x80) break;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return bytes.length - i < length ? bytes.slice(i) : new Uint8Array(0);
    }
  }
  return new Uint8Array(0);
}

/** Line breaks before the first invalid sequence (a U+FFFD the file held itself may be taken for it). */
function lineBreaksBeforeInvalid(bytes: Uint8Array): number {
  const text = new TextDecoder("utf-8").decode(bytes);
  const invalid = text.indexOf("\ufffd");
  return countLineBreaks(invalid === -1 ? text : text.slice(0, invalid));
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * Streams the CSV into the staging table. Claims the job first (`awaiting_file` → `processing`;
 * anything else is 409). A fault in the file or its upload (too large, not UTF-8, a header that
 * does not fit, a broken connection) removes what was stored and gives the job back to
 * `awaiting_file`, so the upload can be retried, and is thrown. A failure of the database while
 * storing makes the job `failed` with its reason (`stored: false`). Returns the number of data rows read.
 */
export async function storeImportFile(
  db: Executor,
  workspaceId: string,
  importId: string,
  body: AsyncIterable<Uint8Array>,
  options: { limitBytes?: number } = {},
): Promise<{ rowsRead: number; stored: boolean }> {
  const owner = await claimOwnerFor(db).ensure();
  const [claimed] = await db
    .update(contactImports)
    .set({ status: "processing", owner, updatedAt: new Date() })
    .where(and(eq(contactImports.id, importId), eq(contactImports.workspaceId, workspaceId), eq(contactImports.status, "awaiting_file")))
    .returning({ options: contactImports.options });
  if (!claimed) {
    const [exists] = await db
      .select({ id: contactImports.id })
      .from(contactImports)
      .where(and(eq(contactImports.id, importId), eq(contactImports.workspaceId, workspaceId)));
    if (!exists) throw missing();
    throw new ApiError("import_file_already_sent", "This import already has its file. Create a new import to load another file.");
  }
  let stored = claimed.options as unknown as StoredOptions;
  let sink: StagingSink | null = null;
  let rowsRead = 0;
  try {
    sink = reportingFailures(await openStagingSink(db, importId).catch((error: unknown) => Promise.reject(new StagingFailure("Starting to stage the rows failed.", { cause: error }))));
    let map: ReturnType<typeof rowMapper> | null = null;
    let strictConsent: ReturnType<typeof consentColumn> = null;
    let rowNumber = 1;
    for await (const batch of csvRecords(utf8Text(body, options.limitBytes ?? MAX_IMPORT_FILE_BYTES))) {
      for (const record of batch) {
        if (!map) {
          if (record instanceof RecordTooLong) throw headerTooLong();
          stored = withHeader(stored, record);
          map = rowMapper(stored);
          strictConsent = stored.autoColumns ? consentColumn(stored) : null;
          continue;
        }
        rowNumber++;
        if (strictConsent && !(record instanceof RecordTooLong)) assertConsentCell(strictConsent, record, rowNumber);
        const sending = sink.add(record instanceof RecordTooLong ? tooLongRow(rowNumber, MAX_RECORD_CHARS, record.unclosedQuote) : map(record, rowNumber));
        if (sending) await sending;
        rowsRead++;
        if (rowsRead % PROGRESS_EVERY_ROWS === 0) {
          await db.update(contactImports).set({ rowsRead, updatedAt: new Date() }).where(eq(contactImports.id, importId));
        }
      }
    }
    if (!map) throw validationFailed([{ path: "file", code: "empty_file", message: "The file is empty: it needs a header row and at least one row." }], "The file is empty.");
    await sink.finish();
    await db
      .update(contactImports)
      .set({ rowsRead, options: stored as unknown as Record<string, unknown>, startedAt: new Date(), updatedAt: new Date() })
      .where(eq(contactImports.id, importId));
    return { rowsRead, stored: true };
  } catch (error) {
    await sink?.abort().catch(() => {});
    await db.delete(contactImportRows).where(eq(contactImportRows.importId, importId));
    const unclaimed = and(eq(contactImports.id, importId), eq(contactImports.status, "processing"), sql`${contactImports.startedAt} is null`);
    if (error instanceof StagingFailure) {
      console.error(`Import ${importId} failed while storing its file: ${describeError(error.cause)}`);
      await db
        .update(contactImports)
        .set({ status: "failed", error: STORE_FAILED_REASON, rowsRead, finishedAt: new Date(), updatedAt: new Date() })
        .where(unclaimed);
      return { rowsRead, stored: false };
    }
    await db.update(contactImports).set({ status: "awaiting_file", rowsRead: 0, updatedAt: new Date() }).where(unclaimed);
    throw error;
  }
}

/** Checks the header against the mapping (or derives the mapping from it); 422 when they do not fit. */
function withHeader(stored: StoredOptions, header: string[]): StoredOptions {
  if (stored.autoColumns) {
    const { columns, problems } = defaultColumns(header);
    if (problems.length > 0) throw headerProblem(problems);
    // The caller states consent as the JSON form does (no permission confirmation there either).
    const parsed = importOptionsSchema.safeParse({ ...stored, columns, permissionConfirmed: true, autoColumns: undefined, header: undefined, consentChange: undefined });
    if (!parsed.success) {
      throw headerProblem(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
    }
    return { ...parsed.data, autoColumns: true, header, ...(stored.consentChange ? { consentChange: stored.consentChange } : {}) };
  }
  const unstorable = header.findIndex((cell) => !isStorableText(cell));
  if (unstorable !== -1) {
    throw validationFailed(
      [{ path: "file.header", code: "invalid_characters", message: `The header of column ${unstorable + 1} contains a NUL character (U+0000).` }],
      "The file's header row contains a NUL character (U+0000), which cannot be stored.",
    );
  }
  const problems = headerMismatches(stored, header);
  if (problems.length > 0) throw headerProblem(problems);
  return { ...stored, header };
}

/** The consent column of a CSV body, whose values are refused with 422 (the JSON form's rule) rather than row by row. */
function consentColumn(stored: StoredOptions): { index: number; header: string; values: Map<string, ConsentStatus> } | null {
  const column = stored.columns.find((candidate) => candidate.target.type === "consent");
  if (!column || column.target.type !== "consent") return null;
  return { index: column.index, header: column.header, values: new Map(Object.entries(column.target.values)) };
}

function assertConsentCell(column: NonNullable<ReturnType<typeof consentColumn>>, record: string[], rowNumber: number): void {
  const cell = record[column.index] ?? "";
  if (parseConsentCell(cell, column.values) !== undefined) return;
  const shown = isStorableText(cell) ? `"${cell.trim().slice(0, 40)}"` : "a value with a NUL character";
  throw validationFailed(
    [
      {
        path: `file.rows[${rowNumber}].consent`,
        code: "invalid_consent",
        message: `Row ${rowNumber}: ${shown} is not a consent value; send subscribed, unsubscribed or unknown (or yes/no, true/false, 1/0), or leave the cell empty.`,
      },
    ],
    `Row ${rowNumber} of the file has a consent value that is not one of subscribed, unsubscribed, unknown, yes, no, true, false, 1, 0; nothing was imported.`,
  );
}

function headerTooLong(): ApiError {
  return validationFailed(
    [{ path: "file.header", code: "record_too_long", message: `The header row is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters.` }],
    `The file's header row is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters: is this a CSV file?`,
  );
}

function headerProblem(problems: string[]): ApiError {
  return validationFailed(
    problems.map((message) => ({ path: "file.header", code: "header_mismatch", message })),
    "The file's header row does not match the import's column mapping.",
  );
}
