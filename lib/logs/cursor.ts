// Opaque keyset cursors: base64url of a position (created_at with microseconds, id) and the
// direction to read from it. Offsets are never used, so pages stay stable while rows arrive.

export type CursorDirection = "older" | "newer";

export interface LogCursor {
  /** `created_at` in UTC with microsecond precision, e.g. `2026-11-21T22:15:00.123456Z`. */
  createdAt: string;
  id: string;
  direction: CursorDirection;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(cursor: LogCursor): string {
  const payload = JSON.stringify([cursor.direction === "older" ? "o" : "n", cursor.createdAt, cursor.id]);
  return Buffer.from(payload, "utf8").toString("base64url");
}

/** The cursor, or null for anything that is not a cursor this module produced. */
export function decodeCursor(token: string): LogCursor | null {
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
  if (!TIMESTAMP.test(createdAt) || Number.isNaN(Date.parse(createdAt)) || !ID.test(id)) return null;
  return { direction: direction === "o" ? "older" : "newer", createdAt, id };
}
