// The planner's statistics on the embedded database. PGlite runs Postgres in one process without
// the autovacuum launcher, so nothing re-analyses its tables: a workspace that grew from a few
// contacts to a hundred thousand kept plans made for a few (its cumulative counters of changed rows
// are not kept up to date there either, so they cannot tell which tables changed). A periodic
// `analyze` of the whole database takes their place (hourly: about 0.6 s with 200,000 contacts and
// 500,000 messages, during which the embedded database answers nothing else); on Postgres autovacuum does it.
import { sql } from "drizzle-orm";
import type { Executor } from "./types";
import { isEmbedded } from "./index";

/** Refreshes every table's statistics on the embedded database; `null` on Postgres (autovacuum's work). */
export async function refreshEmbeddedStatistics(db: Executor): Promise<{ ms: number } | null> {
  if (!isEmbedded()) return null;
  const started = performance.now();
  await db.execute(sql`analyze`);
  return { ms: Math.round(performance.now() - started) };
}
