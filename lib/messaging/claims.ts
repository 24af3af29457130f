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
import { needsRendering, renderClaimedBulkMessages } from "@/lib/bulk/send-render";
import type { OutboundMessage, SenderForSend } from "./providers";
import { liveClaimOwners } from "./owner";
import { applySendPolicies } from "./send-policies";

export interface ClaimedMessage extends OutboundMessage {
  workspaceId: string;
  /** The sender the message was queued for (null only for rows written before senders were pinned). */
  senderId: string | null;
  campaignId: string;
  contactId: string | null;
  source: MessageSource;
  /** Set on a reclaimed row: `outcome_unknown` means an earlier attempt may have reached Meta. */
  errorCode: string | null;
  /** Set on a reclaimed row whose request may have left (its process died or its lease ran out mid-send): never sent again. */
  inFlightAt: Date | null;
  /** Set on a reclaimed row whose send succeeded but whose result was not recorded. */
  wamid: string | null;
  /** The lease this pass holds; fences every write. */
  lease: Date;
  /** The campaign's stored send policy (`{}` for none), read by the claim itself (send-policies.ts). */
  sendPolicy?: unknown;
}

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
        or(isNull(messages.lockedUntil), lt(messages.lockedUntil, input.now), sql`${messages.claimOwner} <> all(${liveClaimOwners})`),
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
      wamid: messages.wamid,
      // In the claim's own statement: send policies cost no round trip of their own.
      sendPolicy: sql<unknown>`(select c.send_policy from campaigns c where c.id = messages.campaign_id)`,
    });
  return applySendPolicies(db, rows.map((row) => ({ ...row, lease: input.lease })), input.now);
}

/** Due trigger and test messages (queued, or sending with an expired lease or a gone owner), oldest first. */
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
 * Due messages of one bulk campaign, oldest first, rendered: the snapshot stores them bare and they
 * get their text and payload here (`lib/bulk/send-render.ts`). Rows that cannot be sent any more (a
 * variable lost its value, the template is gone) are finished there and left out.
 */
export async function claimBulkMessages(db: Executor, input: ClaimInput & { campaignId: string }): Promise<ClaimedMessage[]> {
  const claimed = await claim(
    db,
    input,
    and(eq(messages.campaignId, input.campaignId), sql`${messages.status} in ('queued', 'sending') and ${messages.source} = 'bulk'`),
  );
  if (!claimed.some(needsRendering)) return claimed;
  const { rendered, dropped } = await renderClaimedBulkMessages(db, claimed, input.now);
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
  provider: senders.provider,
  phoneNumberId: senders.phoneNumberId,
  accessTokenEncrypted: senders.accessTokenEncrypted,
  throughputPerSecond: senders.throughputPerSecond,
};

/** Senders by id (a message's pinned sender); ids not found belong to replaced senders. */
export async function loadSendersById(db: Executor, ids: string[]): Promise<Map<string, SenderForSend>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(senderColumns).from(senders).where(inArray(senders.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The workspaces' default senders (for rows queued before messages named their sender). */
export async function loadCurrentSenders(db: Executor, workspaceIds: string[]): Promise<Map<string, SenderForSend>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db.select(senderColumns).from(senders).where(and(inArray(senders.workspaceId, workspaceIds), eq(senders.isDefault, true)));
  return new Map(rows.map((row) => [row.workspaceId, row]));
}
