// Marking sends in flight. A request to WhatsApp leaves only once its row carries `in_flight_at`,
// committed: if the process dies after that, the row is claimed again with the mark and settled as
// outcome unknown (never sent twice); a row claimed without it was never sent and is sent at once.
// Marks asked for within MARK_BATCH_DELAY_MS are written by one statement (per batch, not per
// message), fenced on each claim's lease, which also checks that the pass's claim owner still holds
// its lock (owner.ts): once it does not, others may be taking its claims over, so nothing more leaves.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messages } from "@/db/schema";
import { describeError } from "@/lib/logging";
import type { ClaimedMessage } from "./claims";
import { claimOwnerIsLive } from "./owner";

const MARK_BATCH_SIZE = 200;
const MARK_BATCH_DELAY_MS = 5;

export interface InFlightMarkOptions {
  ownerId: number;
  now: () => number;
  /** The owner's lock was found free: the pass must stop (claim and send nothing more). */
  onOwnerLost: () => void;
  /** The owner's lock was found held. */
  onOwnerConfirmed?: () => void;
}

/** One statement: marks the rows still held under their lease by a live owner; returns whether it was live and the ids marked. */
async function writeMarks(db: Executor, items: ClaimedMessage[], ownerId: number, at: Date): Promise<{ live: boolean; ids: Set<string> }> {
  const values = sql.join(
    items.map((m) => sql`(${m.id}, ${m.lease.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const [row] = await queryRows<{ live: boolean; ids: string[] | string }>(
    db,
    sql`with owner as (select ${claimOwnerIsLive(ownerId)} as live),
      marked as (
        update ${messages} as m set in_flight_at = ${at.toISOString()}::timestamptz
        from (values ${values}) as v(id, lease), owner
        where owner.live and m.id = v.id and m.status = 'sending' and m.locked_until = v.lease and m.claim_owner = ${ownerId}::int
        returning m.id)
      select (select live from owner) as live, coalesce((select json_agg(id) from marked), '[]'::json) as ids`,
  );
  const ids = typeof row?.ids === "string" ? (JSON.parse(row.ids) as string[]) : (row?.ids ?? []);
  return { live: row?.live === true, ids: new Set(ids) };
}

/**
 * `mark(message)` resolves true once the message is marked in flight (its request may leave), false
 * when it must not be sent: the row is no longer held under this claim, the owner's lock is gone,
 * or the write failed (then it is unknown whether the mark was stored; the caller hands it back).
 */
export function createInFlightMarks(db: Executor, options: InFlightMarkOptions) {
  let batch: { items: ClaimedMessage[]; done: Promise<Set<string>>; resolve: (ids: Set<string>) => void } | null = null;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    const current = batch;
    if (!current) return;
    batch = null;
    clearTimeout(timer);
    writeMarks(db, current.items, options.ownerId, new Date(options.now()))
      .then(({ live, ids }) => {
        if (live) options.onOwnerConfirmed?.();
        else options.onOwnerLost();
        current.resolve(ids);
      })
      .catch((error: unknown) => {
        console.error(`[dispatcher] marking ${current.items.length} sends in flight failed; they are handed back unsent: ${describeError(error)}`);
        current.resolve(new Set());
      });
  };

  return {
    async mark(message: ClaimedMessage): Promise<boolean> {
      if (!batch) {
        let resolve!: (ids: Set<string>) => void;
        const done = new Promise<Set<string>>((r) => (resolve = r));
        batch = { items: [], done, resolve };
        timer = setTimeout(flush, MARK_BATCH_DELAY_MS);
      }
      const current = batch;
      current.items.push(message);
      if (current.items.length >= MARK_BATCH_SIZE) flush();
      return (await current.done).has(message.id);
    },
  };
}
