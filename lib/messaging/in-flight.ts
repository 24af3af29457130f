// Marking sends in flight. A request to WhatsApp leaves only once its row carries `in_flight_at`,
// committed: if the process dies after that, the row is claimed again with the mark and settled as
// outcome unknown (never sent twice); a row claimed without it was never sent and is sent at once.
// Marks are written in batches, one statement each (every mark asked for while the previous one was
// being written, across the pass's senders), fenced on each claim's lease; the same statement checks
// that the pass's claim owner still holds its lock (owner.ts): once it does not, others may be taking
// its claims over, so nothing more leaves.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messages } from "@/db/schema";
import { describeError } from "@/lib/logging";
import type { ClaimedMessage } from "./claims";
import { claimOwnerIsLive } from "./owner";

const MARK_BATCH_SIZE = 200;

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
 * Marks asked for while one statement is being written go out together in the next one.
 */
export function createInFlightMarks(db: Executor, options: InFlightMarkOptions) {
  let waiting: { message: ClaimedMessage; resolve: (marked: boolean) => void }[] = [];
  let writing = false;

  const writeWaiting = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MARK_BATCH_SIZE);
        waiting = waiting.slice(batch.length);
        let marked = new Set<string>();
        try {
          const { live, ids } = await writeMarks(db, batch.map((w) => w.message), options.ownerId, new Date(options.now()));
          if (live) options.onOwnerConfirmed?.();
          else options.onOwnerLost();
          marked = ids;
        } catch (error) {
          console.error(`[dispatcher] marking ${batch.length} sends in flight failed; they are handed back unsent: ${describeError(error)}`);
        }
        for (const { message, resolve } of batch) resolve(marked.has(message.id));
      }
    } finally {
      writing = false;
    }
  };

  return {
    mark(message: ClaimedMessage): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        waiting.push({ message, resolve });
        // The marks asked for in this turn of the event loop start the next statement together.
        if (!writing && waiting.length === 1) setImmediate(() => void (writing ? undefined : writeWaiting()));
      });
    },
  };
}
