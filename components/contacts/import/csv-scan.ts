// Reading a CSV in the browser without freezing the tab: a small synchronous preview, then one
// streamed pass in a web worker (papaparse `worker: true`, `chunk`) that only counts.
import Papa from "papaparse";

export const PREVIEW_ROWS = 10;
const SCAN_CHUNK_BYTES = 1024 * 1024;

export interface CsvPreview {
  headers: string[];
  rows: string[][];
}

export interface CsvScan {
  /** Data rows (the header row excluded). */
  rows: number;
  /** Per column: non-empty cells written without a country code (neither `+` nor `00`). */
  withoutCountryCode: number[];
  /** Per column: its distinct values (lower case, trimmed, empty left out), up to MAX_DISTINCT_VALUES; null past that. */
  distinctValues: (string[] | null)[];
}

export const MAX_DISTINCT_VALUES = 20;

/**
 * The rows a default country would change, by the rule of lib/contacts/phone.ts: written without `+`
 * or `00`. Spreadsheet damage (`4.41E+11`) and text that is no number are invalid whatever the
 * country, so they are not counted.
 */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

export function lacksCountryCode(cell: string | undefined): boolean {
  const value = cell?.trim() ?? "";
  if (value === "" || value.startsWith("+") || SCIENTIFIC.test(value) || !PHONE_CHARACTERS.test(value)) return false;
  return !value.replace(/\D/g, "").startsWith("00");
}

/** The header row and the first rows, read from the start of the file only. */
export function readPreview(file: File): Promise<CsvPreview> {
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(file, {
      preview: PREVIEW_ROWS + 1,
      skipEmptyLines: "greedy",
      complete: (results) => {
        const [headers = [], ...rows] = results.data;
        resolve({ headers: headers.map((header) => header.trim()), rows });
      },
      error: (error) => reject(error),
    });
  });
}

/**
 * Counts every row of the file in a web worker. `onProgress` gets a fraction of the file read.
 * Returns a cancel function.
 */
export function scanFile(
  file: File,
  columns: number,
  callbacks: { onProgress: (fraction: number) => void; onDone: (scan: CsvScan) => void; onError: (message: string) => void },
): () => void {
  let cancelled = false;
  let rows = -1;
  let bytes = 0;
  const withoutCountryCode = new Array<number>(columns).fill(0);
  const distinct: (Set<string> | null)[] = Array.from({ length: columns }, () => new Set<string>());
  Papa.parse<string[]>(file, {
    worker: true,
    skipEmptyLines: "greedy",
    chunkSize: SCAN_CHUNK_BYTES,
    chunk: (results, parser) => {
      if (cancelled) {
        parser.abort();
        return;
      }
      for (const row of results.data) {
        rows += 1;
        if (rows === 0) continue;
        for (let column = 0; column < columns; column += 1) {
          if (lacksCountryCode(row[column])) withoutCountryCode[column]! += 1;
          const values = distinct[column];
          if (values) {
            const value = (row[column] ?? "").trim().toLowerCase();
            if (value !== "" && !values.has(value)) {
              if (values.size >= MAX_DISTINCT_VALUES) distinct[column] = null;
              else values.add(value);
            }
          }
        }
      }
      bytes += SCAN_CHUNK_BYTES;
      callbacks.onProgress(Math.min(1, bytes / Math.max(1, file.size)));
    },
    complete: () => {
      if (!cancelled) callbacks.onDone({ rows: Math.max(0, rows), withoutCountryCode, distinctValues: distinct.map((values) => (values ? [...values].sort() : null)) });
    },
    error: (error) => {
      if (!cancelled) callbacks.onError(error.message);
    },
  });
  return () => {
    cancelled = true;
  };
}
