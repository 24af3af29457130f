// Claim-and-route for a dispatch pass: claims due messages (claims.ts: trigger and test messages
// first, then each sending bulk campaign's share, rendered by the injected renderer), resolves the
// sender each was queued for, and routes each claimed row: recorded when an earlier attempt's
// provider message id is known, failed as outcome unknown when an earlier request may have reached
// Meta, failed when its sender is gone, otherwise into its sender's lane (lane-runner.ts).
import type { Executor } from "@/db";
import { SENDER_CHANGED_CODE } from "@/lib/senders/service";
import { claimBulkMessages, claimPriorityMessages, loadCurrentSenders, loadSendersById, type ClaimedMessage, type ClaimRenderer } from "./claims";
import type { Clock } from "./dispatch-contract";
import { INTERRUPTED_SEND_REASON, OUTCOME_UNKNOWN_CODE, OUTCOME_UNKNOWN_REASON } from "./errors";
import type { BulkPacing, LaneRunner, OutcomeWrites, SentWriter } from "./lane-runner";
import type { ChannelSender } from "@/lib/channels";
import { unrecordedProviderMessageId } from "./results";

export { SENDER_CHANGED_CODE };
export const SENDER_CHANGED_REASON =
  "The sender this message was queued for was replaced (its provider or phone number changed), so it was not sent. Resend it from the logs.";

export interface ClaimRouterDeps {
  db: Executor;
  clock: Clock;
  leaseMs: number;
  /** The pass's claim owner id (owner.ts), written into every claimed row. */
  ownerId: number;
  onlyWorkspaceIds?: string[];
  renderClaimed?: ClaimRenderer;
  bulkPacing: BulkPacing;
  lanes: LaneRunner;
  sentWriter: SentWriter;
  fail: OutcomeWrites["fail"];
  track: (task: Promise<void>) => void;
}

export function createClaimRouter(deps: ClaimRouterDeps) {
  const { db, clock, bulkPacing, lanes, sentWriter, fail, track } = deps;
  const senderById = new Map<string, ChannelSender | null>();
  const currentSender = new Map<string, ChannelSender | null>();

  return {
    /** Reads the statuses of sending campaigns and of those the lanes hold; lanes re-check paused and cancelled ones at once. */
    async refreshCampaigns() {
      if (await bulkPacing.refresh(lanes.heldCampaignIds())) lanes.wakeAll();
    },

    /** Claims up to `room` due messages: trigger and test messages first, then each sending campaign's share. */
    async claimBatch(now: number, room: number): Promise<ClaimedMessage[]> {
      const lease = new Date(now + deps.leaseMs);
      const claimed = await claimPriorityMessages(db, {
        now: new Date(now),
        lease,
        owner: deps.ownerId,
        count: room,
        excludeWorkspaceIds: lanes.saturatedWorkspaces(),
        onlyWorkspaceIds: deps.onlyWorkspaceIds,
      });
      let left = room - claimed.length;
      for (const want of bulkPacing.claimWants(lanes.heldBulk, lanes.senderRate)) {
        if (left <= 0) break;
        const rows = await claimBulkMessages(db, {
          campaignId: want.campaignId,
          now: new Date(now),
          lease,
          owner: deps.ownerId,
          count: Math.min(left, want.count),
          render: deps.renderClaimed,
        });
        claimed.push(...rows);
        left -= rows.length;
      }
      return claimed;
    },

    /** Resolves each claimed message's sender (the one it was queued for). */
    async resolveSenders(claimed: ClaimedMessage[]) {
      const ids = [...new Set(claimed.map((m) => m.senderId).filter((id): id is string => id !== null && !senderById.has(id)))];
      const legacy = [...new Set(claimed.filter((m) => m.senderId === null).map((m) => m.workspaceId))].filter((id) => !currentSender.has(id));
      const [byId, current] = await Promise.all([loadSendersById(db, ids), loadCurrentSenders(db, legacy)]);
      for (const id of ids) senderById.set(id, byId.get(id) ?? null);
      for (const id of legacy) currentSender.set(id, current.get(id) ?? null);
    },

    /** Sends a claimed message on its way (its sender resolved). */
    route(message: ClaimedMessage) {
      const sender = message.senderId === null ? currentSender.get(message.workspaceId) : senderById.get(message.senderId);
      const providerMessageId = message.providerMessageId ?? unrecordedProviderMessageId(message.id);
      if (providerMessageId) {
        // Sent by an earlier attempt whose result was not recorded: record it, never send again.
        track(sentWriter.record({ message, providerMessageId, sentAt: new Date(clock.now()), senderId: sender?.id ?? message.senderId ?? "" }));
      } else if (message.inFlightAt !== null || message.errorCode === OUTCOME_UNKNOWN_CODE) {
        // An earlier attempt's request may have reached Meta: the grace after an unknown outcome is
        // over, or the process sending it died (or its lease ran out) with the request open. Never
        // sent again; the attempt was counted when it was made.
        const reason = message.errorCode === OUTCOME_UNKNOWN_CODE ? OUTCOME_UNKNOWN_REASON : INTERRUPTED_SEND_REASON;
        track(fail(message, { code: OUTCOME_UNKNOWN_CODE, reason }));
      } else if (!sender) {
        track(
          message.senderId === null
            ? fail(message, { code: "no_sender", reason: "The workspace has no sender configured." }, { uncount: true })
            : fail(message, { code: SENDER_CHANGED_CODE, reason: SENDER_CHANGED_REASON }, { uncount: true }),
        );
      } else {
        lanes.enqueue(message, sender);
      }
    },
  };
}
