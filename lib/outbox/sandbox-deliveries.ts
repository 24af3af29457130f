// The sandbox's simulated delivery: its messages move along sent → delivered → read once the
// sandbox channel's delays have passed, through the one status rule (statuses.ts). The dispatch
// pass is handed it by the composition root (lib/engine), so messaging never imports the sandbox.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { SANDBOX_DELIVERED_AFTER_MS, SANDBOX_READ_AFTER_MS, SANDBOX_SIMULATION_WINDOW_MS, SANDBOX_MESSAGE_ID_PREFIX } from "@/lib/channels";
import { applyDerivedStatuses } from "./statuses";

/**
 * Moves sandbox messages along sent → delivered → read once their simulated delays have passed,
 * with the simulated times (sent_at + delay). Stateless and idempotent: it runs on every dispatch
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
        and m.wamid like ${`${SANDBOX_MESSAGE_ID_PREFIX}%`}
        and ((m.status = 'sent' and m.sent_at <= ${deliveredBefore.toISOString()}::timestamptz)
          or (m.status = 'delivered' and ${reachedRead}))`,
      status: sql`case when ${reachedRead} then 'read' else 'delivered' end`,
      deliveredAt: sql`m.sent_at + ${`${SANDBOX_DELIVERED_AFTER_MS} milliseconds`}::interval`,
      readAt: sql`case when ${reachedRead} then m.sent_at + ${`${SANDBOX_READ_AFTER_MS} milliseconds`}::interval end`,
    },
    { at: now },
  );
}
