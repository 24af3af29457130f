import type { SQL } from "drizzle-orm";
import type { Executor } from "@/db";

/** Rows of a raw query on either driver (postgres.js returns an array, PGlite `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** A timestamp from a raw row or from jsonb (`Date`, ISO string or Postgres text form) as ISO 8601 UTC. */
export function isoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
