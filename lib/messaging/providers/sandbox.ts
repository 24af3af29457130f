// The sandbox provider: sends nothing, answers like the Cloud API, and simulates delivery.
//
// Reserved test numbers (valid E.164 numbers, so the trigger endpoint accepts them) simulate the
// failure paths; every other number succeeds and then becomes delivered and read.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { randomBase62 } from "@/lib/crypto/random";
import { applyDerivedStatuses } from "@/lib/outbox/statuses";
import { GraphApiError } from "@/lib/whatsapp/graph";
import type { MessageProvider } from "./types";

export const SANDBOX_TEST_NUMBERS = {
  /** Fails at once with 131026 "undeliverable" (permanent). */
  undeliverable: "+447700131026",
  /** First attempt fails with 130429 "throughput reached" (retryable); the retry succeeds. */
  throughputThenSuccess: "+447700130429",
  /** Every attempt times out (retryable) until the attempts run out and the message fails. */
  timeout: "+447700100408",
} as const;

/** Sandbox wamids start with this, so simulated delivery never touches real WhatsApp messages. */
export const SANDBOX_WAMID_PREFIX = "wamid.SANDBOX.";
/** Simulated delivery: `delivered` this long after `sent`, `read` this long after `sent`. */
export const SANDBOX_DELIVERED_AFTER_MS = 1_000;
export const SANDBOX_READ_AFTER_MS = 3_000;
/** Sandbox messages older than this are no longer advanced (keeps the sweep on a bounded index range). */
const SANDBOX_SIMULATION_WINDOW_MS = 60 * 60_000;

export const sandboxProvider: MessageProvider = {
  async send(message) {
    switch (message.phoneNumber) {
      case SANDBOX_TEST_NUMBERS.undeliverable:
        throw new GraphApiError({ kind: "graph", httpStatus: 400, code: 131026, message: "(#131026) Message undeliverable", details: "Sandbox test number: undeliverable." });
      case SANDBOX_TEST_NUMBERS.throughputThenSuccess:
        if (message.attempts <= 1) {
          throw new GraphApiError({ kind: "graph", httpStatus: 400, code: 130429, message: "(#130429) Rate limit hit", details: "Sandbox test number: throughput reached on the first attempt." });
        }
        break;
      case SANDBOX_TEST_NUMBERS.timeout:
        throw new GraphApiError({ kind: "timeout", message: "Sandbox test number: the request timed out." });
    }
    return { wamid: `${SANDBOX_WAMID_PREFIX}${randomBase62(24)}` };
  },
};

/**
 * Moves sandbox messages along sent → delivered → read once their simulated delays have passed,
 * with the simulated times (sent_at + delay), through the status rule (lib/outbox/statuses.ts). Stateless and idempotent: it runs on every dispatch
 * pass, so the simulation survives restarts and works under cron. Returns the rows changed.
 */
export async function advanceSandboxDeliveries(db: Executor, now: Date): Promise<number> {
  const deliveredBefore = new Date(now.getTime() - SANDBOX_DELIVERED_AFTER_MS);
  const readBefore = new Date(now.getTime() - SANDBOX_READ_AFTER_MS);
  // Raw fragments get ISO strings: postgres.js does not serialise a Date inside sql``.
  const reachedRead = sql`m.sent_at <= ${readBefore.toISOString()}::timestamptz`;
  return applyDerivedStatuses(
    db,
    {
      // The workspace/created_at index bounds the scan to recent messages of sandbox workspaces.
      where: sql`m.workspace_id in (select s.workspace_id from senders s where s.provider = 'sandbox')
        and m.created_at > ${new Date(now.getTime() - SANDBOX_SIMULATION_WINDOW_MS).toISOString()}::timestamptz
        and m.wamid like ${`${SANDBOX_WAMID_PREFIX}%`}
        and ((m.status = 'sent' and m.sent_at <= ${deliveredBefore.toISOString()}::timestamptz)
          or (m.status = 'delivered' and ${reachedRead}))`,
      status: sql`case when ${reachedRead} then 'read' else 'delivered' end`,
      deliveredAt: sql`m.sent_at + ${`${SANDBOX_DELIVERED_AFTER_MS} milliseconds`}::interval`,
      readAt: sql`case when ${reachedRead} then m.sent_at + ${`${SANDBOX_READ_AFTER_MS} milliseconds`}::interval end`,
    },
    { at: now },
  );
}
