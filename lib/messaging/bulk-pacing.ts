// Bulk campaigns inside one dispatch pass: their statuses (re-read often, so pause and cancel take
// effect within a second), their pace (the campaign's rate, never above the sender's, shared by all
// processes through the campaign's rate lane) and the per-second cap after a stall.
import type { Executor } from "@/db";
import { loadBulkCampaigns, type BulkCampaignState, type ClaimedMessage } from "./claims";
import type { Lane } from "./lanes";
import type { SenderForSend } from "./providers";
import { campaignLane, PACING_SHARE, SlotBlock, type ThroughputLimiter } from "./throughput";

/**
 * A bulk campaign's slots come at its full rate: rate lanes space slots PACING_SHARE under the rate
 * they are given (a margin meant for the provider's own counting of a sender), so the pace handed
 * to the campaign lane is scaled back up by it. What keeps a campaign at or under its rate in every
 * 1-second window is the per-second cap (`secondWaitMs`), counted on the same send times that are
 * stored as `sent_at`, also when late slots are caught up.
 */
/**
 * A campaign's lane that fell behind (the gap between two passes, a stall) may catch up this far:
 * the missed slots are used as fast as the per-second cap and the sender's slots allow, so a send
 * is not slower by every gap. Without it a run of 100,000 at 80/s lost 39 s to pass boundaries.
 */
const CAMPAIGN_CATCH_UP_MS = 1_000;
/** Bulk work held per campaign in memory, in ms of its send rate; refilled below half. */
const BULK_AHEAD_MS = 1_000;
/** Campaign statuses (pause, cancel) are re-read this often while a pass holds bulk messages. */
export const CAMPAIGN_REFRESH_MS = 250;
/** Send times kept per campaign for its per-second cap. */
const RECENT_SENDS_KEPT = 1_000;

/**
 * The moments each campaign's requests left this process, shared by every pass of the process (a
 * pass started by a trigger runs beside the loop's, and a new pass starts within the second the
 * last one ended). Other processes are held to the rate by the campaign's lane in Postgres.
 */
const processSendTimes = new Map<string, number[]>();

export interface BulkPacingDeps {
  db: Executor;
  limiter: ThroughputLimiter;
  now: () => number;
  /** Held messages of a campaign that stopped sending (paused: back to the queue; cancelled: skipped). */
  settleStopped: (items: ClaimedMessage[], status: string | undefined) => Promise<void>;
  onlyWorkspaceIds?: string[];
  /** Send times per campaign for the per-second cap (tests give each pass its own). */
  sendTimes?: Map<string, number[]>;
}

export function createBulkPacing(deps: BulkPacingDeps) {
  const { db, limiter, now, settleStopped } = deps;
  const states = new Map<string, BulkCampaignState>();
  const slotBlocks = new Map<string, SlotBlock>();
  /** A campaign slot already taken but not used yet (its lane woke up for a trigger message). */
  const slotTaken = new Map<string, number>();
  const recentSends = deps.sendTimes ?? processSendTimes;
  let readAt = -Infinity;

  const status = (campaignId: string) => states.get(campaignId)?.status;

  /** The campaign's send rate per second: its own, at most the sender's. */
  const rate = (campaignId: string, sender: SenderForSend) => {
    const own = states.get(campaignId)?.sendRatePerSecond;
    return own && own > 0 ? Math.min(own, sender.throughputPerSecond) : sender.throughputPerSecond;
  };

  return {
    status,
    isSending: (campaignId: string) => status(campaignId) === "sending",

    /** Re-reads the statuses of sending campaigns and of `alsoIds`, at most every CAMPAIGN_REFRESH_MS; true when it did. */
    async refresh(alsoIds: string[]): Promise<boolean> {
      const at = now();
      if (at - readAt < CAMPAIGN_REFRESH_MS) return false;
      readAt = at;
      const rows = await loadBulkCampaigns(db, { alsoIds, onlyWorkspaceIds: deps.onlyWorkspaceIds });
      states.clear();
      for (const row of rows) states.set(row.id, row);
      return true;
    },

    /** How many more messages of each sending campaign to claim, given what the pass already holds. */
    claimWants(held: (campaignId: string) => number, senderRate: (workspaceId: string) => number | undefined) {
      const wants: { campaignId: string; count: number }[] = [];
      for (const campaign of states.values()) {
        if (campaign.status !== "sending") continue;
        const perSecond = campaign.sendRatePerSecond ?? senderRate(campaign.workspaceId) ?? 80;
        const target = Math.max(1, Math.ceil((perSecond * BULK_AHEAD_MS) / 1000));
        const holding = held(campaign.id);
        if (holding <= target / 2) wants.push({ campaignId: campaign.id, count: target - holding });
      }
      return wants;
    },

    /** The campaign's queue left the lane (released, stopped): its reserved slot goes with it. */
    forget(campaignId: string) {
      slotTaken.delete(campaignId);
    },

    /**
     * The lane's next bulk message whose campaign slot has come (campaigns take turns), or the time
     * to wait for one, or null when the lane holds no bulk work. Queues of campaigns no longer
     * sending are settled first; `onDropped` is told how many messages left the lane that way.
     */
    async next(lane: Lane, at: number): Promise<{ message: ClaimedMessage; /** the campaign's rate per second */ rate: number } | { waitMs: number } | null> {
      for (const [campaignId, queue] of lane.bulk) {
        if (queue.length === 0 || status(campaignId) !== "sending") {
          lane.bulk.delete(campaignId);
          slotTaken.delete(campaignId);
          await settleStopped(queue, status(campaignId));
        }
      }
      let soonest: number | null = null;
      for (const [campaignId, queue] of lane.bulk) {
        const perSecond = rate(campaignId, lane.sender);
        let slot = slotTaken.get(campaignId);
        if (slot === undefined) {
          let block = slotBlocks.get(campaignId);
          if (!block) slotBlocks.set(campaignId, (block = new SlotBlock(limiter, campaignLane(campaignId), { catchUpMs: CAMPAIGN_CATCH_UP_MS })));
          slot = await block.take(perSecond / PACING_SHARE, now, queue.length);
          slotTaken.set(campaignId, slot);
        }
        if (slot <= at) {
          slotTaken.delete(campaignId);
          lane.bulk.delete(campaignId);
          lane.bulk.set(campaignId, queue); // round robin between campaigns
          return { message: queue.shift()!, rate: perSecond };
        }
        soonest = Math.min(soonest ?? Infinity, slot);
      }
      return soonest === null ? null : { waitMs: soonest - at };
    },

    /**
     * Never more than the campaign's rate in any 1-second window: how long to wait before the next
     * send may leave (0: now). Synchronous, so that a caller that gets 0 and records the send
     * without an await in between cannot be overtaken; a timer may wake a millisecond early, so
     * callers ask again after sleeping.
     */
    secondWaitMs(campaignId: string, perSecond: number): number {
      const recent = recentSends.get(campaignId);
      const allowed = Math.max(1, Math.floor(perSecond + 1e-9));
      if (!recent || recent.length < allowed) return 0;
      return Math.max(0, recent[recent.length - allowed]! + 1000 - now());
    },

    /** `at`: when the request leaves (also stored as the message's `sent_at`). */
    recordSend(campaignId: string, at: number) {
      let recent = recentSends.get(campaignId);
      if (!recent) {
        for (const [id, times] of recentSends) if (times.at(-1)! < at - 60_000) recentSends.delete(id);
        recentSends.set(campaignId, (recent = []));
      }
      recent.push(at);
      if (recent.length > RECENT_SENDS_KEPT) recent.splice(0, recent.length - RECENT_SENDS_KEPT);
    },
  };
}
