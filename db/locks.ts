import { sql } from "drizzle-orm";
import type { Executor } from "./types";

/**
 * Takes a transaction-scoped advisory lock for each `namespace:key` (held until the transaction
 * ends; one the transaction already holds is not waited for again). The keys are taken in one order
 * (their hashes sorted), so two transactions naming overlapping keys cannot deadlock on them. Run it
 * in a transaction, before the statement that must see what the lock's last holder committed: under
 * read committed each statement's snapshot is taken when it starts.
 */
export async function lockKeysForTransaction(tx: Executor, namespace: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`select count(pg_advisory_xact_lock(k)) from (
      select distinct hashtextextended(${`${namespace}:`}::text || key, 0) as k
      from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as key order by k
    ) keys`);
}
