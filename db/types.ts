// Leaf module: database types only, so code that the database module loads can name them
// without importing the module itself.
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

export type DB = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: what every query function accepts. */
export type Executor = Pick<DB, "select" | "insert" | "update" | "delete" | "execute" | "transaction">;
