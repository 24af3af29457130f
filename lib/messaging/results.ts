// Recording successful sends. Results are written in batches (one fenced UPDATE … FROM (VALUES …)
// per batch), the hot path at high rates. A write that fails is never a reason to send again: it is
// retried while the lease still holds, then row by row; a result that still cannot be written is
// kept in memory (per process) and written at the start of the next passes. A row whose lease
// expires meanwhile is reclaimed by another process; since the send already happened, the pending
// result is written whatever lease the row has then (see `writeUnrecordedSends`).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messages } from "@/db/schema";
import { describeError } from "@/lib/logging";
import { belowSql } from "@/lib/outbox/statuses";
import type { ClaimedMessage } from "./claims";
import { OUTCOME_UNKNOWN_CODE } from "./errors";

export interface SentRecord {
  message: ClaimedMessage;
  providerMessageId: string;
  sentAt: Date;
  senderId: string;
}

const SENT_BATCH_SIZE = 200;
// At 1,000 sends a second a 10 ms window wrote ~10 rows per statement (and one held-status lookup
// after each): 40 ms makes the statements four times fewer; `sent_at` is the moment of the send either way.
const SENT_BATCH_DELAY_MS = 40;
/** Waits between tries of a failed batch write (all well inside a lease). */
const BATCH_RETRY_DELAYS_MS = [50, 250, 1_000];

/** Results whose write failed every time, per process; written again by later passes. */
function unrecorded(): Map<string, SentRecord> {
  const global = globalThis as { __sendstreamUnrecordedSends?: Map<string, SentRecord> };
  global.__sendstreamUnrecordedSends ??= new Map();
  return global.__sendstreamUnrecordedSends;
}

/** How many sent results this process holds unwritten. */
export function unrecordedSendCount(): number {
  return unrecorded().size;
}

function valuesOf(records: SentRecord[]) {
  // ISO strings with casts: postgres.js does not serialise a Date inside sql``.
  return sql.join(
    records.map(
      (r) => sql`(${r.message.id}, ${r.providerMessageId}, ${r.sentAt.toISOString()}::timestamptz, ${r.senderId}, ${r.message.lease.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
}

/** One fenced write: only rows still held with this pass's lease change. Returns the ids written. */
async function writeSent(db: Executor, records: SentRecord[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${messages} as m
      set status = 'sent', wamid = v.wamid, sent_at = v.sent_at, sender_id = coalesce(m.sender_id, v.sender_id),
          locked_until = null, in_flight_at = null, error_code = null, error_reason = null, updated_at = v.sent_at
      from (values ${valuesOf(records)}) as v(id, wamid, sent_at, sender_id, lease)
      where m.id = v.id and m.status = 'sending' and m.locked_until = v.lease
      returning m.id`,
  );
  return rows.map((row) => row.id);
}

/**
 * Writes results kept from failed writes. The fence is relaxed: the message was sent, so whatever
 * lease or retry state the row has now, it becomes `sent` unless the status rule says a later
 * status already holds (lib/outbox/statuses.ts: queued and sending are below sent). A row failed as
 * outcome unknown meanwhile (its lease ran out while the result waited here, and the pass that took
 * it over could not know the send had gone) becomes `sent` too: the wamid is what that failure did
 * not know.
 */
export async function writeUnrecordedSends(db: Executor): Promise<number> {
  const pending = unrecorded();
  if (pending.size === 0) return 0;
  const records = [...pending.values()];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${messages} as m
      set status = 'sent', wamid = v.wamid, sent_at = v.sent_at, sender_id = coalesce(m.sender_id, v.sender_id),
          locked_until = null, in_flight_at = null, error_code = null, error_reason = null, failed_at = null, updated_at = v.sent_at
      from (values ${valuesOf(records)}) as v(id, wamid, sent_at, sender_id, lease)
      where m.id = v.id
        and (${belowSql(sql`m.status`, "sent")}
          or (m.status = 'failed' and m.error_code = ${OUTCOME_UNKNOWN_CODE} and m.wamid is null))
      returning m.id`,
  );
  // Rows that are no longer queued/sending were settled otherwise (a status report, a cancel): done too.
  for (const record of records) pending.delete(record.message.id);
  return rows.length;
}

export interface SentWriterOptions {
  onWritten: (records: SentRecord[]) => void;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Collects sent results and writes them in batches, when a batch is full or SENT_BATCH_DELAY_MS
 * after its first record. `record` resolves once the result is written (or kept for later), so a
 * pass never ends with results only in this writer.
 */
export function createSentWriter(db: Executor, options: SentWriterOptions) {
  let batch: { records: SentRecord[]; done: Promise<void>; resolve: () => void } | null = null;
  let timer: NodeJS.Timeout | undefined;

  const persist = async (records: SentRecord[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const written = new Set(await writeSent(db, records));
        options.onWritten(records.filter((r) => written.has(r.message.id)));
        return;
      } catch (error) {
        if (attempt >= BATCH_RETRY_DELAYS_MS.length) {
          console.error(`[dispatcher] recording ${records.length} sends failed ${attempt + 1} times, writing them one by one: ${describeError(error)}`);
          break;
        }
        await options.sleep(BATCH_RETRY_DELAYS_MS[attempt]!);
      }
    }
    for (const record of records) {
      try {
        const written = await writeSent(db, [record]);
        options.onWritten(written.length ? [record] : []);
      } catch (error) {
        // Sent but not recorded: never sent again by this process; written by a later pass.
        unrecorded().set(record.message.id, record);
        console.error(`[dispatcher] the send of ${record.message.id} (${record.providerMessageId}) could not be recorded; kept to write later: ${describeError(error)}`);
      }
    }
  };

  const flush = () => {
    const current = batch;
    if (!current) return;
    batch = null;
    clearTimeout(timer);
    void persist(current.records).finally(current.resolve);
  };

  return {
    record(record: SentRecord): Promise<void> {
      if (!batch) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => (resolve = r));
        batch = { records: [], done, resolve };
        timer = setTimeout(flush, SENT_BATCH_DELAY_MS);
      }
      const current = batch;
      current.records.push(record);
      if (current.records.length >= SENT_BATCH_SIZE) flush();
      return current.done;
    },
  };
}

/** The provider's id of a send of this message that this process made but could not record yet. */
export function unrecordedProviderMessageId(messageId: string): string | null {
  return unrecorded().get(messageId)?.providerMessageId ?? null;
}
