// Claiming due messages for a dispatch pass. Every claim is one statement: the due rows are
// selected FOR UPDATE SKIP LOCKED (so any number of processes can claim at once) and leased
// (`status='sending'`, `locked_until`, `claim_owner`, `attempts + 1`). Due: queued, or sending under a
// lease that expired or whose owner's lock is free (the process is gone: owner.ts), so a killed
// process's claims are taken over at once. A row taken over keeps its attempt count: the attempt was
// counted by the claim that made it (`in_flight_at` set: it may have reached Meta and is settled as
// outcome unknown) or was about to make it (sent now). Trigger and test messages are claimed through
// `messages_due_idx`; bulk messages per sending campaign through `messages_bulk_due_idx`, so a
// million queued bulk rows never slow down the claim of a trigger message. Campaign send policies
// (quiet hours, frequency cap) are applied to each claim before anything is sent (send-policies.ts).
import { and, eq, inArray, isNull, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns, messages, senders, type MessageSource } from "@/db/schema";
import type { ChannelSender } from "@/lib/channels";
import { claimOwnerGone } from "./owner";
import { applySendPolicies } from "./send-policies";

interface ClaimedFields {
  id: string;
  /** E.164. */
  phoneNumber: string;
  /** The provider-ready template object (`{ template: { name, language: { code }, components } }`). */
  payload: Record<string, unknown>;
  /** Attempts so far, including the one being made. */
  attempts: number;
  workspaceId: string;
  /** The sender the message was queued for (null only for rows written before senders were pinned). */
  senderId: string | null;
  contactId: string | null;
  /** Set on a reclaimed row: `outcome_unknown` means an earlier attempt may have reached Meta. */
  errorCode: string | null;
  /** Set on a reclaimed row whose request may have left (its process died or its lease ran out mid-send): never sent again. */
  inFlightAt: Date | null;
  /** Set on a reclaimed row whose send succeeded but whose result was not recorded. */
  providerMessageId: string | null;
  /** The lease this pass holds; fences every write. */
  lease: Date;
  /** The campaign's stored send policy (`{}` for none), read by the claim itself (send-policies.ts). */
  sendPolicy?: unknown;
}

/** A claimed campaign message (trigger, bulk, test) names its campaign; a conversation's reply has none. */
export type ClaimedMessage = ClaimedFields & ({ source: Exclude<MessageSource, "reply">; campaignId: string } | { source: "reply"; campaignId: null });

interface ClaimInput {
  now: Date;
  lease: Date;
  count: number;
  /** The pass's claim owner id (owner.ts), written into each claimed row; without one only the lease frees the claim. */
  owner?: number;
}

async function claim(db: Executor, input: ClaimInput, where: SQL | undefined): Promise<ClaimedMessage[]> {
  if (input.count <= 0) return [];
  const due = db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        where,
        lte(messages.nextAttemptAt, input.now),
        // The owners' locks are read once per statement, and only for rows under a live lease.
        or(isNull(messages.lockedUntil), lt(messages.lockedUntil, input.now), claimOwnerGone(messages.claimOwner, input.owner)),
      ),
    )
    .orderBy(messages.nextAttemptAt)
    .limit(input.count)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(messages)
    .set({
      status: "sending",
      lockedUntil: input.lease,
      claimOwner: input.owner ?? null,
      // SET reads the row as it was: a row taken over (already sending) keeps its count.
      attempts: sql`${messages.attempts} + case when ${messages.status} = 'sending' then 0 else 1 end`,
      updatedAt: input.now,
    })
    .where(inArray(messages.id, due))
    .returning({
      id: messages.id,
      workspaceId: messages.workspaceId,
      senderId: messages.senderId,
      campaignId: messages.campaignId,
      contactId: messages.contactId,
      source: messages.source,
      phoneNumber: messages.phoneNumber,
      payload: messages.payload,
      attempts: messages.attempts,
      errorCode: messages.errorCode,
      inFlightAt: messages.inFlightAt,
      providerMessageId: messages.providerMessageId,
      // In the claim's own statement: send policies cost no round trip of their own.
      sendPolicy: sql<unknown>`(select c.send_policy from campaigns c where c.id = messages.campaign_id)`,
    });
  return applySendPolicies(db, rows.map((row) => ({ ...row, lease: input.lease }) as ClaimedMessage), input.now);
}

/** Due trigger, test and reply messages (queued, or sending with an expired lease or a gone owner), oldest first. */
export function claimPriorityMessages(
  db: Executor,
  input: ClaimInput & { excludeWorkspaceIds?: string[]; onlyWorkspaceIds?: string[] },
): Promise<ClaimedMessage[]> {
  return claim(
    db,
    input,
    and(
      // Literal predicate so the partial index messages_due_idx applies.
      sql`${messages.status} in ('queued', 'sending') and ${messages.source} <> 'bulk'`,
      input.excludeWorkspaceIds?.length ? notInArray(messages.workspaceId, input.excludeWorkspaceIds) : undefined,
      input.onlyWorkspaceIds ? inArray(messages.workspaceId, input.onlyWorkspaceIds) : undefined,
    ),
  );
}

/**
 * Renders the bare rows of a bulk claim (the snapshot stores them without text and payload) and
 * stores what it rendered, fenced on the lease; rows that cannot be sent any more (a variable lost
 * its value, the template is gone) are settled there and returned in `dropped`. The bulk backend's,
 * handed to the dispatcher by the composition root (lib/engine).
 */
export type ClaimRenderer = (
  db: Executor,
  rows: Extract<ClaimedMessage, { campaignId: string }>[],
  now: Date,
) => Promise<{ rendered: Map<string, Record<string, unknown>>; dropped: Set<string> }>;

/** True for a row stored bare (no template payload yet): rendered when it is claimed. */
const isBare = (row: ClaimedMessage) => !row.payload || row.payload.template === undefined;

/**
 * Due messages of one bulk campaign, oldest first, rendered by `render` when they were stored bare;
 * rows it drops are left out.
 */
export async function claimBulkMessages(db: Executor, input: ClaimInput & { campaignId: string; render?: ClaimRenderer }): Promise<ClaimedMessage[]> {
  const claimed = await claim(
    db,
    input,
    and(eq(messages.campaignId, input.campaignId), sql`${messages.status} in ('queued', 'sending') and ${messages.source} = 'bulk'`),
  );
  if (!input.render || !claimed.some(isBare)) return claimed;
  // Claimed by the campaign's id: every row names it.
  const { rendered, dropped } = await input.render(db, claimed as Extract<ClaimedMessage, { campaignId: string }>[], input.now);
  return claimed.filter((m) => !dropped.has(m.id)).map((m) => ({ ...m, payload: rendered.get(m.id) ?? m.payload }));
}

export interface BulkCampaignState {
  id: string;
  workspaceId: string;
  status: string;
  sendRatePerSecond: number | null;
  /** The sender it sends through (null: the workspace's default). */
  senderId: string | null;
}

/** Bulk campaigns that are sending, plus the current status of `alsoIds` (campaigns whose messages a pass holds). */
export async function loadBulkCampaigns(db: Executor, input: { alsoIds: string[]; onlyWorkspaceIds?: string[] }): Promise<BulkCampaignState[]> {
  return db
    .select({ id: campaigns.id, workspaceId: campaigns.workspaceId, status: campaigns.status, sendRatePerSecond: campaigns.sendRatePerSecond, senderId: campaigns.senderId })
    .from(campaigns)
    .where(
      or(
        and(
          eq(campaigns.kind, "bulk"),
          eq(campaigns.status, "sending"),
          input.onlyWorkspaceIds ? inArray(campaigns.workspaceId, input.onlyWorkspaceIds) : undefined,
        ),
        input.alsoIds.length ? inArray(campaigns.id, input.alsoIds) : undefined,
      ),
    );
}

const senderColumns = {
  id: senders.id,
  workspaceId: senders.workspaceId,
  channel: senders.provider,
  address: senders.phoneNumberId,
  accessTokenEncrypted: senders.accessTokenEncrypted,
  throughputPerSecond: senders.throughputPerSecond,
};

/** Senders by id (a message's pinned sender); ids not found belong to replaced senders. */
export async function loadSendersById(db: Executor, ids: string[]): Promise<Map<string, ChannelSender>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(senderColumns).from(senders).where(inArray(senders.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The workspaces' default senders (for rows queued before messages named their sender). */
export async function loadCurrentSenders(db: Executor, workspaceIds: string[]): Promise<Map<string, ChannelSender>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db.select(senderColumns).from(senders).where(and(inArray(senders.workspaceId, workspaceIds), eq(senders.isDefault, true)));
  return new Map(rows.map((row) => [row.workspaceId, row]));
}
