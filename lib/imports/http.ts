// Request → response for the import routes and the CSV form of `POST /contacts/bulk`.
import { getDb } from "@/db";
import { payloadTooLarge } from "@/lib/http/body";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { json, runAfterResponse } from "@/lib/routing/route";
import type { Actor } from "@/lib/workspaces";
import { MAX_IMPORT_FILE_BYTES } from "./schemas";
import { processImport, recoverImport } from "./recovery";
import { createCsvBodyImport, discardImport, getImport } from "./service";
import { storeImportFile } from "./store";

export function isCsvContentType(contentType: string | null): boolean {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return mediaType === "text/csv" || mediaType === "application/csv";
}

/** 415 unless the body is CSV, 413 when its declared length is over the cap (the stream is capped as it is read). */
export function csvBody(request: Request): AsyncIterable<Uint8Array> {
  if (!isCsvContentType(request.headers.get("content-type"))) {
    throw new ApiError("unsupported_media_type", "Send the file as the raw body with the header Content-Type: text/csv.");
  }
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_IMPORT_FILE_BYTES) throw payloadTooLarge(MAX_IMPORT_FILE_BYTES);
  if (!request.body) throw validationFailed([{ path: "file", code: "empty_file", message: "The body is empty: send the CSV file." }], "The file is empty.");
  return request.body as unknown as AsyncIterable<Uint8Array>;
}

/**
 * Stores the file, answers 202 with the job, and merges after the response. A file the server
 * could not store also answers 202: the job is `failed` and says why.
 */
export async function acceptImportFile(request: Request, requestId: string, workspaceId: string, importId: string, body: AsyncIterable<Uint8Array>): Promise<Response> {
  const db = await getDb();
  const { stored } = await storeImportFile(db, workspaceId, importId, body);
  const view = await getImport(db, workspaceId, importId);
  if (stored) runAfterResponse(requestId, `merging import ${importId}`, () => processImport(db, workspaceId, importId));
  return json(view, { status: 202, headers: { Location: `/api/v1/imports/${importId}` } });
}

/** `POST /contacts/bulk` with `Content-Type: text/csv`: a job mapped from the header row. */
export async function acceptCsvBulk(request: Request, requestId: string, workspaceId: string, actor: Actor): Promise<Response> {
  const body = csvBody(request);
  const db = await getDb();
  const job = await createCsvBodyImport(db, workspaceId, "contacts.csv", actor);
  try {
    return await acceptImportFile(request, requestId, workspaceId, job.id, body);
  } catch (error) {
    // The job exists only for this body: a refused body leaves no empty job behind.
    await discardImport(db, workspaceId, job.id);
    throw error;
  }
}

/** `GET /imports/{id}`: the job, after restarting a merge or an upload a crash left behind. */
export async function importResponse(requestId: string, workspaceId: string, id: string): Promise<Response> {
  const db = await getDb();
  const view = await getImport(db, workspaceId, id);
  if (view.status === "processing" && (await recoverImport(db, workspaceId, id)) === "merge") {
    runAfterResponse(requestId, `resuming import ${id}`, () => processImport(db, workspaceId, id));
  }
  return json(await getImport(db, workspaceId, id));
}
