// Leases on background work that runs in one place at a time, across every process (`engine_leases`).
// Taking one is a single statement: it succeeds when the lease is free, expired, or handed over by
// its holder (the caller presents the holder's token); two callers racing for it get one winner.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { Executor } from "@/db/types";

export interface TakeLease {
  name: string;
  /** The new holder's token. */
  holder: string;
  /** How long the lease lasts unless handed over or released first (ms). */
  ttlMs: number;
  /** The current holder's token: it hands the lease over even though it has not expired. */
  handedOverBy?: string | null;
}

/** Takes the lease; true when `holder` now holds it. */
export async function takeLease(db: Executor, lease: TakeLease): Promise<boolean> {
  const rows = await queryRows<{ holder: string }>(
    db,
    sql`insert into engine_leases (name, holder, expires_at)
      values (${lease.name}, ${lease.holder}, now() + ${lease.ttlMs} * interval '1 millisecond')
      on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where engine_leases.expires_at <= now() or engine_leases.holder = ${lease.handedOverBy ?? null}::text
      returning holder`,
  );
  return rows[0]?.holder === lease.holder;
}

/** Gives the lease up, if `holder` still holds it (a lease handed over stays with its new holder). */
export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await queryRows(db, sql`delete from engine_leases where name = ${name} and holder = ${holder}`);
}

/** Whether someone holds the lease now (it exists and has not expired). */
export async function leaseHeld(db: Executor, name: string): Promise<boolean> {
  const rows = await queryRows<{ held: boolean }>(db, sql`select exists (select 1 from engine_leases where name = ${name} and expires_at > now()) as held`);
  return Boolean(rows[0]?.held);
}
