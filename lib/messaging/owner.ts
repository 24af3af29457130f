// Who holds a claim, and whether it is still alive. Each dispatching process takes a session
// advisory lock (`pg_advisory_lock(CLAIM_OWNER_LOCK_CLASS, id)`) on a connection of its own, kept for
// the life of the process, and writes `id` into every row it claims (`messages.claim_owner`). The
// lock is released by Postgres the moment that session ends (the process was killed, its connection
// dropped), so a claim whose owner's lock is free belongs to nobody and is taken over at once instead
// of after its lease. The embedded database has one connection, in one process: its only owner is
// the current process, and a claim left by an earlier run of it is orphaned from the start.
//
// A lost lock is never taken again under the same id (others may already have taken the claims
// over): the process gets a new id, and sends nothing under the old one (`inflight.ts` checks the
// id's lock in the statement that lets a request leave).
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { beforeCloseDb, type Executor } from "@/db";
import { queryRows } from "@/db/rows";

/** The first key of every claim owner's advisory lock ("SSDP"), so other advisory locks never collide. */
export const CLAIM_OWNER_LOCK_CLASS = 0x53534450;
/** A held id is checked again at the start of a pass at most this often (a mark also confirms it). */
const RECHECK_MS = 1_000;

/** The ids of every live claim owner of this database (one read of the lock table, as an int[]). */
export const liveClaimOwners: SQL = sql.raw(
  `array(select l.objid::bigint::int from pg_locks l
     where l.locktype = 'advisory' and l.classid = ${CLAIM_OWNER_LOCK_CLASS} and l.objsubid = 2 and l.granted
       and l.database = (select oid from pg_database where datname = current_database()))`,
);

/** True in SQL while the owner `id` holds its lock. */
export const claimOwnerIsLive = (id: number): SQL => sql`(${id}::int = any(${liveClaimOwners}))`;

/** How long this process remembers an id it lost: far longer than any lease, so only the lease frees those claims. */
const RETIRED_REMEMBERED_MS = 10 * 60_000;

/** Ids this process held and lost (their connection dropped: a database restart), with when. On globalThis: one set per process. */
function retiredHere(): Map<number, number> {
  const global = globalThis as { __sendstreamRetiredClaimOwners?: Map<number, number> };
  global.__sendstreamRetiredClaimOwners ??= new Map();
  return global.__sendstreamRetiredClaimOwners;
}

/**
 * This process lost `id`'s lock while alive: its passes may still be settling claims made under it
 * (a request that left, a hand-back or a result kept for the next pass), so this process does not
 * take those claims over as a dead owner's (that would settle a sent message as outcome unknown);
 * another process may, and the lease frees them here.
 */
export function retireClaimOwner(id: number, now = Date.now()): void {
  const retired = retiredHere();
  for (const [old, at] of retired) if (now - at > RETIRED_REMEMBERED_MS) retired.delete(old);
  retired.set(id, now);
}

/**
 * True in SQL when a claim's owner is gone: its lock is free, and it is neither `current` (the id this
 * process claims under, whose lock may have gone unnoticed for up to a second) nor an id this process
 * lost while alive.
 */
export function claimOwnerGone(owner: SQL | AnyColumn, current?: number): SQL {
  const retired = [...retiredHere().keys(), ...(current === undefined ? [] : [current])].filter(Number.isInteger);
  const notOurs = retired.length > 0 ? sql` and ${owner} <> all(${sql.raw(`array[${retired.join(",")}]::int[]`)})` : sql``;
  return sql`(${owner} <> all(${liveClaimOwners})${notOurs})`;
}

export interface ClaimOwner {
  /** The live id claims are made under: acquired on first use, a new one after the lock was lost. */
  ensure(): Promise<number>;
  /** A statement found `id`'s lock free: claim nothing more under it. */
  lost(id: number): void;
  /** `id` was found live just now (saves the next pass its check). */
  confirmed(id: number): void;
  /** Lets go of the lock and its connection (the pool cannot end while it is reserved); a later `ensure` takes a new one. */
  release(): Promise<void>;
}

/** The postgres.js client behind a drizzle instance, when it is one (the embedded database has no `reserve`). */
interface PostgresClient {
  reserve(): Promise<ReservedConnection>;
}
interface ReservedConnection {
  unsafe(query: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  release(): void;
}

const randomId = () => 1 + Math.floor(Math.random() * 0x7ffffffe);

function createClaimOwner(db: Executor, client: unknown): ClaimOwner {
  let id: number | null = null;
  let checkedAt = 0;
  let acquiring: Promise<number> | null = null;
  /** The connection reserved for the lock (Postgres). */
  let held: ReservedConnection | null = null;
  const reservable = typeof (client as Partial<PostgresClient> | null)?.reserve === "function" ? (client as PostgresClient) : null;

  const isLive = async (candidate: number) => {
    const [row] = await queryRows<{ live: boolean }>(db, sql`select ${claimOwnerIsLive(candidate)} as live`);
    return row?.live === true;
  };

  /**
   * Takes the lock under a fresh id: on a connection reserved for it (Postgres), or on the one
   * connection (embedded). The reserved connection is never released: it holds the lock until the
   * process ends or the connection drops (then the pool has it back, and the lock went with its session).
   */
  const acquire = async (): Promise<number> => {
    const connection = reservable ? await reservable.reserve() : null;
    try {
      for (;;) {
        const candidate = randomId();
        const [row] = connection
          ? await connection.unsafe(`select pg_try_advisory_lock(${CLAIM_OWNER_LOCK_CLASS}, $1::int) as locked`, [candidate])
          : await queryRows<{ locked: boolean }>(db, sql`select pg_try_advisory_lock(${CLAIM_OWNER_LOCK_CLASS}, ${candidate}::int) as locked`);
        // Taken: another process holds this id (1 in 2^31); draw again.
        if (row?.locked !== true) continue;
        if (connection) {
          if (!held) beforeCloseDb(release);
          held = connection;
        }
        return candidate;
      }
    } catch (error) {
      connection?.release();
      throw error;
    }
  };

  const release = async () => {
    const connection = held;
    const current = id;
    held = null;
    id = null;
    if (!connection || current === null) return;
    // On a connection that dropped the unlock fails, and the pool already has the connection back.
    await connection.unsafe(`select pg_advisory_unlock(${CLAIM_OWNER_LOCK_CLASS}, $1::int)`, [current]);
    connection.release();
  };

  return {
    async ensure() {
      if (acquiring) return acquiring;
      const current = id;
      if (current !== null && Date.now() - checkedAt < RECHECK_MS) return current;
      acquiring = (async () => {
        if (current !== null && (await isLive(current))) {
          checkedAt = Date.now();
          return current;
        }
        if (current !== null) {
          console.error(`[dispatcher] the claim owner lock ${current} was lost (its connection dropped); taking a new one`);
          retireClaimOwner(current);
        }
        const fresh = await acquire();
        id = fresh;
        checkedAt = Date.now();
        return fresh;
      })().finally(() => {
        acquiring = null;
      });
      return acquiring;
    },
    lost(lostId) {
      if (id === lostId) {
        console.error(`[dispatcher] the claim owner lock ${lostId} is no longer held: nothing more is sent under it`);
        retireClaimOwner(lostId);
        id = null;
      }
    },
    confirmed(liveId) {
      if (id === liveId) checkedAt = Date.now();
    },
    release,
  };
}

/**
 * The claim owner of this process for the database behind `db` (one per client: a pass over another
 * drizzle instance of the same connection shares it). Kept on globalThis: Next.js can load this
 * module in more than one module graph per process.
 */
export function claimOwnerFor(db: Executor): ClaimOwner {
  const client = (db as { $client?: object }).$client ?? db;
  const global = globalThis as { __sendstreamClaimOwners?: WeakMap<object, ClaimOwner> };
  global.__sendstreamClaimOwners ??= new WeakMap();
  let owner = global.__sendstreamClaimOwners.get(client);
  if (!owner) global.__sendstreamClaimOwners.set(client, (owner = createClaimOwner(db, client)));
  return owner;
}
