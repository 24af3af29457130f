import type { Logger, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./types";

const dialect = new PgDialect();

interface PostgresJsSql {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown[]>;
}

interface SessionInternals {
  client?: unknown;
  logger?: Logger;
}

/** The postgres.js client behind a drizzle database or transaction, when that is the driver. */
function postgresJsSession(db: Executor): { client: PostgresJsSql; logger?: Logger } | null {
  const session = (db as { _?: { session?: SessionInternals } })._?.session;
  const client = session?.client as Partial<PostgresJsSql> | undefined;
  if (typeof client !== "function" && typeof client !== "object") return null;
  if (typeof client?.unsafe !== "function") return null;
  return { client: client as PostgresJsSql, logger: session?.logger };
}

/** The rows of a `db.execute` result on either driver: postgres.js answers an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] }).rows ?? [];
}

/**
 * Rows of a raw query on either driver.
 * With `prepared`, postgres.js runs it as a named prepared statement (parsed once per
 * connection), unless DATABASE_PREPARE=false says a transaction-mode pooler is in the way.
 */
export async function queryRows<T>(db: Executor, query: SQL, options: { prepared?: boolean } = {}): Promise<T[]> {
  if (options.prepared && process.env.DATABASE_PREPARE !== "false") {
    const session = postgresJsSession(db);
    if (session) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      session.logger?.logQuery(text, params);
      return (await session.client.unsafe(text, params, { prepare: true })) as T[];
    }
  }
  return rowsOf<T>(await db.execute(query));
}
