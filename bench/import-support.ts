// The contact-import benchmark's file and its run through the API, shared by `bench:import` and
// `bench:growth`: a generated CSV (phone, name, 3 attributes, 5 % duplicate phones, 1 % invalid rows)
// and one import of it — create the job, PUT the file, poll until the report — with the server's RSS.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import type postgres from "postgres";
import { rssOfTree } from "./processes";

const AREAS = [212, 213, 305, 310, 312, 404, 415, 512, 617, 646, 702, 713, 718, 917, 206, 303];
const CITIES = ["Lisbon", "Porto", "Leeds", "Austin", "Denver", "Boston", "Miami", "Seattle"];

/** Distinct valid US numbers for i below 112,000,000 (checked by the phone tests' fast path: none falls back). */
function phone(i: number): string {
  const rest = Math.floor(i / AREAS.length);
  return `+1${AREAS[i % AREAS.length]}${200 + (rest % 700)}${String(Math.floor(rest / 700)).padStart(4, "0")}`;
}

const isInvalid = (i: number) => i % 100 === 50;
const isDuplicate = (i: number) => i % 20 === 19;

/** Row i (0-based): 1 % invalid (spreadsheet damage or no country code), 5 % repeat an earlier valid row's phone. */
export function csvRow(i: number): string {
  let number = phone(i);
  if (isInvalid(i)) number = i % 200 === 50 ? "4.41E+11" : `212 555 ${String(i % 10000).padStart(4, "0")}`;
  else if (isDuplicate(i)) {
    let earlier = i - 7;
    while (isInvalid(earlier) || isDuplicate(earlier)) earlier--;
    number = phone(earlier);
  }
  const day = String(1 + (i % 28)).padStart(2, "0");
  return `${number},Customer ${i},${CITIES[i % CITIES.length]},${i % 1000},2025-0${1 + (i % 9)}-${day}\n`;
}

export interface CsvFile {
  file: string;
  bytes: number;
  rows: number;
  /** What the report of its first import into a workspace without these phones must say. */
  expected: { invalid: number; duplicates: number; distinct: number };
}

/**
 * Rows `first` … `first + rows - 1` as a CSV with a header, written to `file` unless it exists.
 * `first` a multiple of 100: a duplicate then repeats a phone of its own file.
 */
export async function writeCsv(file: string, rows: number, first = 0): Promise<CsvFile> {
  let invalid = 0;
  let duplicates = 0;
  for (let i = first; i < first + rows; i++) {
    if (isInvalid(i)) invalid++;
    else if (isDuplicate(i)) duplicates++;
  }
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.partial`;
    const out = fs.createWriteStream(partial);
    out.write("phone,name,city,points,member_since\n");
    let chunk = "";
    for (let i = first; i < first + rows; i++) {
      chunk += csvRow(i);
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
        chunk = "";
      }
    }
    out.end(chunk);
    await new Promise<void>((resolve) => out.once("finish", () => resolve()));
    fs.renameSync(partial, file);
  }
  return { file, bytes: fs.statSync(file).size, rows, expected: { invalid, duplicates, distinct: rows - invalid - duplicates } };
}

export interface ImportJob {
  id: string;
  status: string;
  rowsRead: number;
  created: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  invalid: number;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export async function api<T>(baseUrl: string, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export const IMPORT_COLUMNS = [
  { index: 0, header: "phone", target: { type: "phone" } },
  { index: 1, header: "name", target: { type: "name" } },
  { index: 2, header: "city", target: { type: "attribute", key: "city", attributeType: "string" } },
  { index: 3, header: "points", target: { type: "attribute", key: "points", attributeType: "number" } },
  { index: 4, header: "member_since", target: { type: "attribute", key: "member_since", attributeType: "date" } },
] as const;

export interface ImportRun {
  label: string;
  report: ImportJob;
  totalS: number;
  storeS: number;
  mergeS: number;
  baselineMb: number;
  peakMb: number;
  growthMb: number;
}

/** One import of `csv` through the API into a new list, timed from the job's creation to its report. */
export async function importOnce(
  server: { baseUrl: string; key: string; pid: number },
  csv: CsvFile,
  label: string,
  listName = "Bench import",
): Promise<ImportRun> {
  const { baseUrl, key, pid } = server;
  const baseline = rssOfTree(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOfTree(pid))), 50);
  const started = performance.now();
  const job = await api<ImportJob>(baseUrl, key, "POST", "/api/v1/imports", {
    fileName: path.basename(csv.file),
    columns: IMPORT_COLUMNS,
    updateExisting: true,
    newListName: listName,
  });
  const upload = await fetch(`${baseUrl}/api/v1/imports/${job.id}/file`, {
    method: "PUT",
    headers: { "x-api-key": key, "content-type": "text/csv", "content-length": String(csv.bytes) },
    body: Readable.toWeb(fs.createReadStream(csv.file, { highWaterMark: 1 << 20 })) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  if (upload.status !== 202) throw new Error(`Upload: ${upload.status} ${await upload.text()}`);
  const stored = performance.now();
  let report: ImportJob;
  for (;;) {
    report = await api<ImportJob>(baseUrl, key, "GET", `/api/v1/imports/${job.id}`);
    if (report.status === "completed" || report.status === "failed") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const finished = performance.now();
  clearInterval(sampler);
  peak = Math.max(peak, rssOfTree(pid));
  // From the 202 (file stored) to the report seen by polling: the merge, plus at most one poll interval.
  const mergeS = (finished - stored) / 1000;
  const result = {
    label,
    report,
    totalS: (finished - started) / 1000,
    storeS: (stored - started) / 1000,
    mergeS,
    baselineMb: baseline / 2 ** 20,
    peakMb: peak / 2 ** 20,
    growthMb: (peak - baseline) / 2 ** 20,
  };
  console.log(
    `${label}: ${result.totalS.toFixed(2)} s end to end (upload + parse + COPY ${result.storeS.toFixed(2)} s, merge ${mergeS.toFixed(2)} s); ` +
      `created ${report.created}, updated ${report.updated}, unchanged ${report.unchanged}, duplicates ${report.duplicates}, invalid ${report.invalid}; ` +
      `server RSS ${result.baselineMb.toFixed(0)} → ${result.peakMb.toFixed(0)} MB (+${result.growthMb.toFixed(1)} MB)`,
  );
  if (report.status !== "completed") throw new Error(`Import ${label} ended ${report.status}: ${report.error}`);
  return result;
}

/**
 * Waits until the staged valid rows of a merged import are deleted (the server does it after the
 * report), so that the next import is timed on its own; seconds waited. Gives up after `limitMs`.
 */
export async function waitForStagedRowsDeleted(sql: postgres.Sql, importId: string, limitMs = 300_000): Promise<number> {
  const started = performance.now();
  while ((await sql<{ n: number }[]>`select count(*)::int as n from contact_import_rows where import_id = ${importId} and error is null`)[0]!.n > 0) {
    if (performance.now() - started > limitMs) throw new Error(`The staged rows of ${importId} were still there ${limitMs / 1000} s after its report.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (performance.now() - started) / 1000;
}
