// Bulk campaigns inside one dispatch pass: their statuses (re-read often, so pause and cancel take
// effect within a second) and their pace (the campaign's rate, never above the sender's).
//
// The pace holds in every 1-second window of `sent_at`, whatever the number of passes, module graphs
// (Next loads server modules more than once per process) or processes: it lives only in Postgres.
// The campaign's rate lane (`campaign:<id>`, throughput.ts) hands out each slot once, all of them at
// least 1000 / (PACING_SHARE × rate) ms apart, and a message leaves only within
// CAMPAIGN_SLOT_TOLERANCE_MS after a slot of its own (`sendMoment`). The sends of any 1-second window
// then have slots within 1,040 ms, which hold at most `rate` of them (PACING_SHARE spaces `rate + 1`
// slots over 1,041.7 ms).
//
// The campaign slot is taken last, once the message holds its sender's slot, and in small blocks
// (CAMPAIGN_BLOCK_MS): a slot taken earlier would go stale while the message waits for its sender
// (triggers go first, and another pass may hold the sender's next slots), and be lost.
//
// A campaign without a rate below its sender's throughput has no lane of its own: every message of
// a campaign goes through its one sender, whose lane already holds every 1-second window of all the
// number's sends to the rate. Two lanes at the same rate lost about 8 % of each one's slots (a
// message waiting for one lane's slot let the other's next slot go stale), so a number at 1,000/s
// sent 900/s.
import type { Executor } from "@/db";
import { loadBulkCampaigns, type BulkCampaignState, type ClaimedMessage } from "./claims";
import type { Lane } from "./lanes";
import type { ChannelSender } from "@/lib/channels";
import { campaignLane, intervalUs, SlotBlock, type ThroughputLimiter } from "./throughput";

/** How late a campaign slot may still be used: under 1000 / PACING_SHARE − 1000 ms (41.7), see above. */
const CAMPAIGN_SLOT_TOLERANCE_MS = 40;
/** Campaign slots reserved at a time, in ms of the campaign's rate (at least one slot). */
const CAMPAIGN_BLOCK_MS = 50;
/**
 * A campaign's next message is taken this long before its slot is expected, so that its sender's
 * slot and the campaign slot's reservation are done by then.
 */
const CAMPAIGN_LEAD_MS = 20;
/** Bulk work held per campaign in memory, in ms of its send rate; refilled below half. */
const BULK_AHEAD_MS = 1_000;
/** Campaign statuses (pause, cancel) are re-read this often while a pass holds bulk messages. */
export const CAMPAIGN_REFRESH_MS = 250;

export interface BulkPacingDeps {
  db: Executor;
  limiter: ThroughputLimiter;
  now: () => number;
  /** Held messages of a campaign that stopped sending (paused: back to the queue; cancelled: skipped). */
  settleStopped: (items: ClaimedMessage[], status: string | undefined) => Promise<void>;
  onlyWorkspaceIds?: string[];
}

export function createBulkPacing(deps: BulkPacingDeps) {
  const { db, limiter, now, settleStopped } = deps;
  const states = new Map<string, BulkCampaignState>();
  const slotBlocks = new Map<string, SlotBlock>();
  /** When to take each campaign's next message: CAMPAIGN_LEAD_MS before its next slot, as far as this pass knows. */
  const readyAt = new Map<string, number>();
  /** A campaign slot taken but too far off to wait for in `sendMoment`: the next message uses it. */
  const heldSlot = new Map<string, number>();
  let readAt = -Infinity;

  const status = (campaignId: string) => states.get(campaignId)?.status;

  /** The next free slot of the campaign's lane (slots gone stale are dropped; a small block is reserved when none is left). */
  const takeSlot = (campaignId: string, perSecond: number) => {
    let block = slotBlocks.get(campaignId);
    if (!block) slotBlocks.set(campaignId, (block = new SlotBlock(limiter, campaignLane(campaignId))));
    return block.take(perSecond, now, Math.ceil((perSecond * CAMPAIGN_BLOCK_MS) / 1000));
  };

  /** The campaign's own send rate per second when it is below its sender's throughput; null when the sender's lane alone paces it. */
  const ownRate = (campaignId: string, sender: ChannelSender) => {
    const own = states.get(campaignId)?.sendRatePerSecond;
    return own && own > 0 && own < sender.throughputPerSecond ? own : null;
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
    claimWants(held: (campaignId: string) => number, senderRate: (campaign: { workspaceId: string; senderId: string | null }) => number | undefined) {
      const wants: { campaignId: string; count: number }[] = [];
      for (const campaign of states.values()) {
        if (campaign.status !== "sending") continue;
        const perSecond = campaign.sendRatePerSecond ?? senderRate(campaign) ?? 80;
        const target = Math.max(1, Math.ceil((perSecond * BULK_AHEAD_MS) / 1000));
        const holding = held(campaign.id);
        if (holding <= target / 2) wants.push({ campaignId: campaign.id, count: target - holding });
      }
      return wants;
    },

    /** The campaign's queue left the lane (released, stopped). */
    forget(campaignId: string) {
      readyAt.delete(campaignId);
      heldSlot.delete(campaignId);
    },

    /**
     * The lane's next bulk message whose campaign is due (campaigns take turns), or the time to wait
     * for one, or null when the lane holds no bulk work. Queues of campaigns no longer sending are
     * settled first. A campaign with a rate of its own (`campaignRate`) takes its slot in `sendMoment`.
     */
    async next(
      lane: Lane,
      at: number,
    ): Promise<{ message: ClaimedMessage; /** the campaign's own rate per second; null: its sender's lane alone paces it */ campaignRate: number | null } | { waitMs: number } | null> {
      for (const [campaignId, queue] of lane.bulk) {
        if (queue.length === 0 || status(campaignId) !== "sending") {
          lane.bulk.delete(campaignId);
          readyAt.delete(campaignId);
          heldSlot.delete(campaignId);
          await settleStopped(queue, status(campaignId));
        }
      }
      let soonest: number | null = null;
      for (const [campaignId, queue] of lane.bulk) {
        const due = readyAt.get(campaignId) ?? -Infinity;
        if (due <= at) {
          lane.bulk.delete(campaignId);
          lane.bulk.set(campaignId, queue); // round robin between campaigns
          return { message: queue.shift()!, campaignRate: ownRate(campaignId, lane.sender) };
        }
        soonest = Math.min(soonest ?? Infinity, due);
      }
      return soonest === null ? null : { waitMs: soonest - at };
    },

    /**
     * The moment a bulk message leaves (stored as its `sent_at`): at most CAMPAIGN_SLOT_TOLERANCE_MS
     * after a slot of its campaign's lane, waited for here (a slot whose wait overran is replaced).
     * The caller holds its sender's slot, and sends at the returned moment with no await in between.
     * Null when the campaign's next slot is further off than CAMPAIGN_LEAD_MS (another pass or
     * process holds the ones before it): the caller puts the message back, and `next` gives it
     * again in time for that slot, so the lane is not blocked meanwhile.
     */
    async sendMoment(campaignId: string, perSecond: number, sleep: (ms: number) => Promise<void>): Promise<number | null> {
      const interval = intervalUs(perSecond) / 1000;
      for (;;) {
        const slot = heldSlot.get(campaignId) ?? (await takeSlot(campaignId, perSecond));
        heldSlot.delete(campaignId);
        if (slot - now() > CAMPAIGN_LEAD_MS) {
          heldSlot.set(campaignId, slot);
          readyAt.set(campaignId, slot - CAMPAIGN_LEAD_MS);
          return null;
        }
        while (now() < slot) await sleep(slot - now());
        const at = now();
        if (at - slot <= CAMPAIGN_SLOT_TOLERANCE_MS) {
          readyAt.set(campaignId, slot + interval - Math.min(interval, CAMPAIGN_LEAD_MS));
          return at;
        }
      }
    },
  };
}
