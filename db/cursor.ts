// Opaque keyset cursors: base64url of a position (created_at with microseconds, id) and the
// direction to read from it. Offsets are never used, so pages stay stable while rows arrive.
//
// The timestamp travels as the database's own text with all six fractional digits and is
// compared as a timestamptz literal: a JS Date keeps only milliseconds, and rows created within
// one millisecond would be skipped when a page ends between them.
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

export type CursorDirection = "older" | "newer";

export interface KeysetCursor {
  /** `created_at` in UTC with microsecond precision, e.g. `2026-11-21T22:15:00.123456Z`. */
  createdAt: string;
  id: string;
  direction: CursorDirection;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ANY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(cursor: KeysetCursor): string {
  const payload = JSON.stringify([cursor.direction === "older" ? "o" : "n", cursor.createdAt, cursor.id]);
  return Buffer.from(payload, "utf8").toString("base64url");
}

/**
 * The cursor, or null for anything that is not a cursor this module produced. `id` narrows the
 * ids accepted (for example to one table's prefix).
 */
export function decodeCursor(token: string, options: { id?: RegExp } = {}): KeysetCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [direction, createdAt, id] = parsed as unknown[];
  if ((direction !== "o" && direction !== "n") || typeof createdAt !== "string" || typeof id !== "string") return null;
  if (!TIMESTAMP.test(createdAt) || Number.isNaN(Date.parse(createdAt)) || !ANY_ID.test(id)) return null;
  if (options.id && !options.id.test(id)) return null;
  return { direction: direction === "o" ? "older" : "newer", createdAt, id };
}

/** A `created_at` column as cursor text: UTC with microseconds, exact enough to resume a keyset scan. */
export function cursorTimestamp(column: AnyPgColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** Rows strictly after the cursor position in its reading direction, on `(created_at, id)`. */
export function keysetCondition(columns: { createdAt: AnyPgColumn; id: AnyPgColumn }, cursor: Pick<KeysetCursor, "createdAt" | "id" | "direction">): SQL {
  const position = sql`(${cursor.createdAt}::timestamptz, ${cursor.id})`;
  return cursor.direction === "older"
    ? sql`(${columns.createdAt}, ${columns.id}) < ${position}`
    : sql`(${columns.createdAt}, ${columns.id}) > ${position}`;
}

/**
 * Newest first, as the (…, created_at DESC, id DESC) indexes sort: drizzle declares those `NULLS
 * LAST`, and a plain `desc()` asks for `NULLS FIRST`, which no index gives, so Postgres reads and
 * sorts every row of the scope (a million contacts) for one page.
 */
export function newestFirst(...columns: AnyPgColumn[]): SQL[] {
  return columns.map((column) => sql`${column} desc nulls last`);
}
