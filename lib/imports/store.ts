// Storing an import's file: the request body streamed through papaparse (never held in memory),
// each record mapped to a staged row, the rows streamed into `contact_import_rows`.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contactImportRows, contactImports } from "@/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { payloadTooLarge } from "@/lib/http/body";
import { csvRecords } from "./csv";
import { defaultColumns, headerMismatches, rowMapper } from "./rows";
import { importOptionsSchema, MAX_IMPORT_FILE_BYTES, type ImportOptions } from "./schemas";
import { openStagingSink } from "./staging";

/** What a job keeps in `contact_imports.options`: the options, and the file's header once read. */
export interface StoredOptions extends ImportOptions {
  /** Set for a CSV body sent without a mapping: the columns come from the header. */
  autoColumns?: boolean;
  header?: string[];
}

const PROGRESS_EVERY_ROWS = 20_000;
const missing = () => notFound("No import with this id exists in your workspace.");

async function* decoded(source: AsyncIterable<Uint8Array>, limitBytes: number): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > limitBytes) throw payloadTooLarge(limitBytes);
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/**
 * Streams the CSV into the staging table. Claims the job first (`awaiting_file` → `processing`;
 * anything else is 409), and on any failure removes what was stored and gives the job back to
 * `awaiting_file`, so the upload can be retried. Returns the number of data rows read.
 */
export async function storeImportFile(
  db: Executor,
  workspaceId: string,
  importId: string,
  body: AsyncIterable<Uint8Array>,
  options: { limitBytes?: number } = {},
): Promise<{ rowsRead: number }> {
  const [claimed] = await db
    .update(contactImports)
    .set({ status: "processing", updatedAt: new Date() })
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
  const sink = await openStagingSink(db, importId);
  let rowsRead = 0;
  try {
    let map: ReturnType<typeof rowMapper> | null = null;
    let rowNumber = 1;
    for await (const batch of csvRecords(decoded(body, options.limitBytes ?? MAX_IMPORT_FILE_BYTES))) {
      for (const record of batch) {
        if (!map) {
          stored = withHeader(stored, record);
          map = rowMapper(stored);
          continue;
        }
        rowNumber++;
        await sink.add(map(record, rowNumber));
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
    return { rowsRead };
  } catch (error) {
    await sink.abort().catch(() => {});
    await db.delete(contactImportRows).where(eq(contactImportRows.importId, importId));
    await db
      .update(contactImports)
      .set({ status: "awaiting_file", rowsRead: 0, updatedAt: new Date() })
      .where(and(eq(contactImports.id, importId), eq(contactImports.status, "processing"), sql`${contactImports.startedAt} is null`));
    throw error;
  }
}

/** Checks the header against the mapping (or derives the mapping from it); 422 when they do not fit. */
function withHeader(stored: StoredOptions, header: string[]): StoredOptions {
  if (stored.autoColumns) {
    const { columns, problems } = defaultColumns(header);
    if (problems.length > 0) throw headerProblem(problems);
    const parsed = importOptionsSchema.safeParse({ ...stored, columns, autoColumns: undefined, header: undefined });
    if (!parsed.success) {
      throw headerProblem(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
    }
    return { ...parsed.data, autoColumns: true, header };
  }
  const problems = headerMismatches(stored, header);
  if (problems.length > 0) throw headerProblem(problems);
  return { ...stored, header };
}

function headerProblem(problems: string[]): ApiError {
  return validationFailed(
    problems.map((message) => ({ path: "file.header", code: "header_mismatch", message })),
    "The file's header row does not match the import's column mapping.",
  );
}
