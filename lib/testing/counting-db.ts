import type { Logger } from "drizzle-orm";
import { getDb, isEmbedded, type DB } from "@/db";
import * as schema from "@/db/schema";

/**
 * A second drizzle instance over the test database's own connection that records every SQL
 * statement it sends, so tests can assert on what reached the database (e.g. "no UPDATE").
 */
export async function countingDb(): Promise<{ db: DB; statements: string[] }> {
  const base = await getDb();
  const statements: string[] = [];
  const logger: Logger = { logQuery: (query) => void statements.push(query) };
  const client = (base as unknown as { $client: unknown }).$client;
  const db = isEmbedded()
    ? (await import("drizzle-orm/pglite")).drizzle(client as never, { schema, logger })
    : (await import("drizzle-orm/postgres-js")).drizzle(client as never, { schema, logger });
  return { db: db as unknown as DB, statements };
}

/**
 * Makes `getDb()` return a counting instance for the duration of `run`, so statements issued by
 * code that fetches the database itself (route handlers) are recorded too.
 */
export async function withCountingGetDb<T>(run: (statements: string[]) => Promise<T>): Promise<T> {
  const { db, statements } = await countingDb();
  const state = (globalThis as { __sendstreamDb?: { db?: Promise<DB> } }).__sendstreamDb;
  if (!state?.db) throw new Error("The database is not open.");
  const original = state.db;
  state.db = Promise.resolve(db);
  try {
    return await run(statements);
  } finally {
    state.db = original;
  }
}
