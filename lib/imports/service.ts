// Import jobs: create, read (progress and report), list, resume, and the rejected rows as CSV.
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, newestFirst } from "@/db/cursor";
import { queryRows } from "@/db/rows";
import { contactImports, contactLists } from "@/db/schema";
import { attributeTypesOf } from "@/lib/contacts/attributes";
import { consentChangeOf } from "@/lib/contacts/service";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { notFound, validationFailed, type FieldError } from "@/lib/http/errors";
import type { Actor } from "@/lib/workspaces";
import { csvLine } from "./rows";
import type { ImportOptions, ImportView } from "./schemas";
import type { StoredOptions } from "./store";

type ImportRow = typeof contactImports.$inferSelect;

const IMPORT_ID = /^imp_[A-Za-z0-9]{1,64}$/;
const missing = () => notFound("No import with this id exists in your workspace.");

export function toImportView(row: ImportRow): ImportView {
  return {
    id: row.id,
    object: "import",
    status: row.status,
    fileName: row.fileName,
    rowsRead: row.rowsRead,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    duplicates: row.duplicates,
    invalid: row.invalid,
    listId: row.listId,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function creator(actor: Actor | null): Pick<ImportRow, "createdByUserId" | "createdByApiKeyId"> {
  if (actor?.type === "user") return { createdByUserId: actor.id, createdByApiKeyId: null };
  if (actor?.type === "api_key") return { createdByUserId: null, createdByApiKeyId: actor.id };
  return { createdByUserId: null, createdByApiKeyId: null };
}

/** Checks what the options refer to: the list exists in the workspace, attribute types match their definitions. */
async function referenceErrors(db: Executor, workspaceId: string, options: ImportOptions): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (options.listId) {
    const [list] = await db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.id, options.listId), eq(contactLists.workspaceId, workspaceId)));
    if (!list) errors.push({ path: "listId", code: "unknown_list", message: "No list with this id exists in your workspace." });
  }
  const attributeColumns = options.columns.flatMap((column, i) => (column.target.type === "attribute" ? [{ i, target: column.target }] : []));
  const types = await attributeTypesOf(db, workspaceId, attributeColumns.map((c) => c.target.key));
  for (const { i, target } of attributeColumns) {
    const defined = types.get(target.key);
    if (defined && defined !== target.attributeType) {
      errors.push({ path: `columns[${i}].target.attributeType`, code: "attribute_type_conflict", message: `"${target.key}" is defined as ${defined}; map it as ${defined}.` });
    }
  }
  return errors;
}

/**
 * Creates the job. A user's confirmation that they may message the file's contacts (required when
 * it subscribes any) is audited with the job (`import.permission_confirmed`).
 */
export async function createImport(db: Executor, workspaceId: string, options: ImportOptions, actor: Actor | null, auditActor?: AuditActor): Promise<ImportView> {
  const errors = await referenceErrors(db, workspaceId, options);
  if (errors.length > 0) throw validationFailed(errors);
  const stored: StoredOptions = { ...options, defaultCountry: options.defaultCountry ?? null };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactImports)
      .values({ id: newId("imp"), workspaceId, fileName: options.fileName, options: stored as unknown as Record<string, unknown>, listId: options.listId ?? null, ...creator(actor) })
      .returning();
    if (options.permissionConfirmed) {
      const consentColumn = options.columns.find((column) => column.target.type === "consent" || column.target.type === "opted_out");
      await recordAudit(tx, {
        workspaceId,
        actor: auditActor ?? { userId: actor?.type === "user" ? actor.id : null, apiKeyId: actor?.type === "api_key" ? actor.id : null, ip: null, userAgent: null },
        action: "import.permission_confirmed",
        targetType: "import",
        targetId: row!.id,
        metadata: {
          fileName: options.fileName,
          consentColumn: consentColumn?.header ?? null,
          values: consentColumn?.target.type === "consent" ? consentColumn.target.values : null,
        },
      });
    }
    return toImportView(row!);
  });
}

/** A job for a CSV body sent to `POST /contacts/bulk`: columns from the header, existing contacts updated. */
export async function createCsvBodyImport(db: Executor, workspaceId: string, fileName: string, actor: Actor | null): Promise<ImportView> {
  const stored: StoredOptions = {
    fileName,
    columns: [],
    defaultCountry: null,
    updateExisting: true,
    permissionConfirmed: false,
    autoColumns: true,
    ...(actor ? { consentChange: consentChangeOf(actor) } : {}),
  };
  const [row] = await db
    .insert(contactImports)
    .values({ id: newId("imp"), workspaceId, fileName, options: stored as unknown as Record<string, unknown>, ...creator(actor) })
    .returning();
  return toImportView(row!);
}

/** Removes a job that never got its file (its staged rows go with it). */
export async function discardImport(db: Executor, workspaceId: string, id: string): Promise<void> {
  await db.delete(contactImports).where(and(eq(contactImports.id, id), eq(contactImports.workspaceId, workspaceId), eq(contactImports.status, "awaiting_file")));
}

async function loadImport(db: Executor, workspaceId: string, id: string): Promise<ImportRow> {
  if (!IMPORT_ID.test(id)) throw missing();
  const [row] = await db.select().from(contactImports).where(and(eq(contactImports.id, id), eq(contactImports.workspaceId, workspaceId)));
  if (!row) throw missing();
  return row;
}

export async function getImport(db: Executor, workspaceId: string, id: string): Promise<ImportView> {
  return toImportView(await loadImport(db, workspaceId, id));
}

export async function listImports(db: Executor, workspaceId: string, options: { limit: number; cursor?: string }): Promise<{ data: ImportView[]; nextCursor: string | null }> {
  const conditions = [eq(contactImports.workspaceId, workspaceId)];
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor, { id: IMPORT_ID });
    if (!cursor || cursor.direction !== "older") {
      throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "The cursor is not valid; start again from the first page." }]);
    }
    conditions.push(keysetCondition(contactImports, cursor));
  }
  const rows = await db
    .select({ job: contactImports, position: cursorTimestamp(contactImports.createdAt) })
    .from(contactImports)
    .where(and(...conditions))
    .orderBy(...newestFirst(contactImports.createdAt, contactImports.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toImportView(row.job)),
    nextCursor: rows.length > options.limit && last ? encodeCursor({ createdAt: last.position, id: last.job.id, direction: "older" }) : null,
  };
}

const REJECTED_BATCH = 5000;

/** `row,reason,<the file's columns>`: every refused row with its reason, streamed in keyset batches. */
export async function rejectedRowsCsv(db: Executor, workspaceId: string, id: string): Promise<{ fileName: string; stream: ReadableStream<Uint8Array> }> {
  const job = await loadImport(db, workspaceId, id);
  const header = (job.options as unknown as StoredOptions).header ?? [];
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${csvLine(["row", "reason", ...header])}\r\n`));
        return;
      }
      const rows = await queryRows<{ row_number: number; error: string; raw: string | null }>(
        db,
        sql`select row_number, error, raw from contact_import_rows
            where import_id = ${id} and error is not null and row_number > ${after}
            order by row_number limit ${REJECTED_BATCH}`,
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      after = rows.at(-1)!.row_number;
      const text = rows.map((row) => `${csvLine([String(row.row_number), row.error])}${row.raw ? `,${row.raw}` : ""}\r\n`).join("");
      controller.enqueue(encoder.encode(text));
    },
  });
  const base = job.fileName.replace(/\.csv$/i, "").replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 80) || "import";
  return { fileName: `${base}-rejected.csv`, stream };
}
