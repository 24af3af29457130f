// The workspace's senders as a collection (REST: /api/v1/senders): list with a cursor, add, rename,
// change credentials, make one the default, delete. Exactly one sender is the default at any time;
// a sender campaigns use is only deleted with a replacement that takes them over.
import { and, asc, count, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaigns, messages, senders } from "@/db/schema";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition } from "@/db/cursor";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import type { ChannelName } from "@/lib/channels/types";
import { encryptSecret } from "@/lib/crypto/secrets";
import { newId } from "@/lib/crypto/random";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { getSenderRow, getSenderRowById, isSenderConfigured, messagingTierLabel, SENDER_CHANGED_CODE, shareMessagingTier, type SenderRow } from "./service";
import { recordSenderAccount } from "./messaging-account";
import { createSenderSchema, deleteSenderQuerySchema, updateSenderSchema, type CreateSenderInput, type UpdateSenderInput } from "./schemas";
import { saveSenderSettings } from "./tier-setting";

const SENDER_ID = /^snd_[A-Za-z0-9_-]+$/;

/** A sender as the REST API shows it: never a secret, not even masked; only whether each is set. */
export interface SenderResource {
  id: string;
  object: "sender";
  name: string;
  provider: ChannelName;
  isDefault: boolean;
  status: SenderRow["status"];
  phoneNumberId: string | null;
  wabaId: string | null;
  displayPhoneNumber: string | null;
  throughputPerSecond: number;
  messagingTier: string | null;
  messagingLimit: string;
  qualityRating: string | null;
  configured: boolean;
  credentials: { accessToken: boolean; appSecret: boolean; verifyToken: boolean };
  createdAt: string;
  updatedAt: string;
}

export function toSenderResource(row: SenderRow): SenderResource {
  return {
    id: row.id,
    object: "sender",
    name: row.name,
    provider: row.provider,
    isDefault: row.isDefault,
    status: row.status,
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    displayPhoneNumber: row.displayPhoneNumber,
    throughputPerSecond: row.throughputPerSecond,
    messagingTier: row.messagingTier,
    messagingLimit: messagingTierLabel(row),
    qualityRating: row.qualityRating,
    configured: isSenderConfigured(row),
    credentials: { accessToken: Boolean(row.accessTokenEncrypted), appSecret: Boolean(row.appSecretEncrypted), verifyToken: Boolean(row.verifyTokenEncrypted) },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A page of the workspace's senders, oldest first (the default is marked `isDefault`). */
export async function listSenders(
  db: Executor,
  workspaceId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<{ data: SenderResource[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  const conditions = [eq(senders.workspaceId, workspaceId)];
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor, { id: SENDER_ID });
    if (!cursor || cursor.direction !== "newer") {
      throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "The cursor is not valid; start again from the first page." }]);
    }
    conditions.push(keysetCondition(senders, cursor));
  } else {
    // The first page of a workspace without any sender yet shows its sandbox default.
    await getSenderRow(db, workspaceId);
  }
  const rows = await db
    .select({ sender: senders, position: cursorTimestamp(senders.createdAt) })
    .from(senders)
    .where(and(...conditions))
    .orderBy(asc(senders.createdAt), asc(senders.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toSenderResource(row.sender)),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.sender.id, direction: "newer" }) : null,
  };
}

export async function getSenderResource(db: Executor, workspaceId: string, id: string): Promise<SenderResource> {
  return toSenderResource(await getSenderRowById(db, workspaceId, id));
}

/** Adds a sender; the first real one a workspace adds does not become the default unless asked. */
export async function createSender(db: Executor, workspaceId: string, body: CreateSenderInput, actor: AuditActor = SYSTEM_ACTOR): Promise<SenderResource> {
  const input = createSenderSchema.parse(body);
  if (input.provider === "whatsapp" && !input.accessToken) {
    throw validationFailed([{ path: "accessToken", code: "required", message: "Paste the access token of your system user." }]);
  }
  return db.transaction(async (tx) => {
    await getSenderRow(tx, workspaceId);
    if (input.provider === "whatsapp") {
      const [same] = await tx
        .select({ name: senders.name })
        .from(senders)
        .where(and(eq(senders.workspaceId, workspaceId), eq(senders.provider, "whatsapp"), eq(senders.phoneNumberId, input.phoneNumberId)))
        .limit(1);
      if (same) {
        throw validationFailed([{ path: "phoneNumberId", code: "duplicate", message: `This number is already the sender “${same.name}”: change that one instead.` }]);
      }
    }
    // A new number of a business account the workspace already sends from shares its known limit.
    const [sibling] =
      input.provider === "whatsapp" && input.messagingTier === undefined
        ? await tx
            .select({ tier: senders.messagingTier })
            .from(senders)
            .where(and(eq(senders.workspaceId, workspaceId), eq(senders.provider, "whatsapp"), eq(senders.wabaId, input.wabaId), isNotNull(senders.messagingTier)))
            .limit(1)
        : [];
    const id = newId("snd");
    const name = input.name ?? (input.provider === "sandbox" ? "Sandbox" : `WhatsApp ${input.phoneNumberId}`);
    const [row] = await tx
      .insert(senders)
      .values(
        input.provider === "sandbox"
          ? { id, workspaceId, name, provider: "sandbox", status: "connected" }
          : {
              id,
              workspaceId,
              name,
              provider: "whatsapp",
              phoneNumberId: input.phoneNumberId,
              wabaId: input.wabaId,
              accessTokenEncrypted: encryptSecret(input.accessToken!),
              appSecretEncrypted: input.appSecret ? encryptSecret(input.appSecret) : null,
              verifyTokenEncrypted: input.verifyToken ? encryptSecret(input.verifyToken) : null,
              messagingTier: input.messagingTier ?? sibling?.tier ?? null,
              status: "untested",
            },
      )
      .returning();
    if (!row) throw new Error("The sender was not stored.");
    await recordSenderAccount(tx, row);
    if (input.provider === "whatsapp" && input.messagingTier) await shareMessagingTier(tx, row, input.messagingTier);
    await recordAudit(tx, { workspaceId, actor, action: "sender.created", targetType: "sender", targetId: id, metadata: { name, provider: row.provider } });
    if (input.isDefault) return toSenderResource(await makeDefault(tx, workspaceId, row, actor));
    return toSenderResource(row);
  });
}

/**
 * Renames a sender, makes it the default (`isDefault: true`; there is no "not default": another
 * sender becomes the default instead), or changes its connection. A connection change keeps the
 * settings rules: a different provider or number gives the sender a new id and fails its queued
 * messages with `sender_changed`; its campaigns follow the new id.
 */
export async function updateSender(db: Executor, workspaceId: string, id: string, body: UpdateSenderInput, actor: AuditActor = SYSTEM_ACTOR): Promise<SenderResource> {
  const input = updateSenderSchema.parse(body);
  return db.transaction(async (tx) => {
    let row = await getSenderRowById(tx, workspaceId, id);
    const connection = [input.provider, input.phoneNumberId, input.wabaId, input.accessToken, input.appSecret, input.verifyToken, input.messagingTier];
    if (connection.some((value) => value !== undefined)) {
      const provider = input.provider ?? row.provider;
      const view = await saveSenderSettings(
        tx,
        workspaceId,
        provider === "sandbox"
          ? { provider: "sandbox" }
          : {
              provider: "whatsapp",
              phoneNumberId: input.phoneNumberId ?? row.phoneNumberId ?? "",
              wabaId: input.wabaId ?? row.wabaId ?? "",
              accessToken: input.accessToken,
              appSecret: input.appSecret,
              verifyToken: input.verifyToken,
              messagingTier: input.messagingTier,
            },
        actor,
        { senderId: row.id },
      );
      row = await getSenderRowById(tx, workspaceId, view.id);
    }
    if (input.name !== undefined && input.name !== row.name) {
      const [renamed] = await tx.update(senders).set({ name: input.name, updatedAt: new Date() }).where(eq(senders.id, row.id)).returning();
      await recordAudit(tx, { workspaceId, actor, action: "sender.renamed", targetType: "sender", targetId: row.id, metadata: { name: input.name, previousName: row.name } });
      row = renamed ?? row;
    }
    if (input.isDefault && !row.isDefault) row = await makeDefault(tx, workspaceId, row, actor);
    return toSenderResource(row);
  });
}

/** Makes the sender the workspace's default (the previous default stops being it first: one default at a time). */
export async function setDefaultSender(db: Executor, workspaceId: string, id: string, actor: AuditActor = SYSTEM_ACTOR): Promise<SenderResource> {
  return db.transaction(async (tx) => toSenderResource(await makeDefault(tx, workspaceId, await getSenderRowById(tx, workspaceId, id), actor)));
}

async function makeDefault(tx: Executor, workspaceId: string, row: SenderRow, actor: AuditActor): Promise<SenderRow> {
  if (row.isDefault) return row;
  const previous = await tx
    .update(senders)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(senders.workspaceId, workspaceId), eq(senders.isDefault, true)))
    .returning({ id: senders.id });
  const [updated] = await tx.update(senders).set({ isDefault: true, updatedAt: new Date() }).where(eq(senders.id, row.id)).returning();
  await recordAudit(tx, {
    workspaceId,
    actor,
    action: "sender.default_changed",
    targetType: "sender",
    targetId: row.id,
    metadata: { previousDefaultId: previous[0]?.id ?? null },
  });
  return updated ?? row;
}

const MAX_NAMED_CAMPAIGNS = 5;

/**
 * Deletes a sender. The default sender, or one that campaigns use, is deleted only with a
 * `replacement`: another sender of the workspace that takes its campaigns over and, for the
 * default, becomes the default. Without one the answer is 409 naming what holds it. Messages still
 * queued for it fail with `sender_changed` (a message is never sent by another sender); its past
 * sends keep counting for its business account's daily limit.
 */
export async function deleteSender(
  db: Executor,
  workspaceId: string,
  id: string,
  options: { replacement?: string } = {},
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const { replacement: replacementId } = deleteSenderQuerySchema.parse(options);
  await db.transaction(async (tx) => {
    const row = await getSenderRowById(tx, workspaceId, id);
    if (replacementId === id) {
      throw validationFailed([{ path: "replacement", code: "invalid", message: "The replacement must be another sender than the one deleted." }]);
    }
    const replacement = replacementId ? await getSenderRowById(tx, workspaceId, replacementId) : null;
    const using = await tx
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.senderId, id)))
      .orderBy(asc(campaigns.createdAt))
      .limit(MAX_NAMED_CAMPAIGNS + 1);
    if (!replacement && row.isDefault) {
      throw new ApiError("sender_is_default", `“${row.name}” is the workspace's default sender. Make another sender the default first, or delete it with a replacement that becomes the default.`);
    }
    if (!replacement && using.length > 0) {
      const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(campaigns).where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.senderId, id)));
      const names = using.slice(0, MAX_NAMED_CAMPAIGNS).map((c) => `“${c.name}”`).join(", ");
      const more = Number(total) > MAX_NAMED_CAMPAIGNS ? ` and ${Number(total) - MAX_NAMED_CAMPAIGNS} more` : "";
      throw new ApiError(
        "sender_in_use",
        `${Number(total)} campaign${Number(total) === 1 ? " sends" : "s send"} through “${row.name}”: ${names}${more}. Give them another sender, or delete it with a replacement that takes them over.`,
        { extensions: { campaigns: using.slice(0, MAX_NAMED_CAMPAIGNS).map((c) => c.name), campaignCount: Number(total) } },
      );
    }
    let moved = 0;
    if (replacement) {
      if (row.isDefault) await makeDefault(tx, workspaceId, replacement, actor);
      const updated = await tx
        .update(campaigns)
        .set({ senderId: replacement.id, updatedAt: sql`now()` })
        .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.senderId, id)))
        .returning({ id: campaigns.id });
      moved = updated.length;
    }
    await recordSenderAccount(tx, row);
    const now = new Date();
    const reason = `The sender “${row.name}” was deleted after this message was queued, so it was not sent (it is never sent by another sender). Resend it from the logs.`;
    const failed = await tx
      .update(messages)
      .set({ status: "failed", errorCode: SENDER_CHANGED_CODE, errorReason: reason, failedAt: now, lockedUntil: null, updatedAt: now })
      .where(and(eq(messages.workspaceId, workspaceId), eq(messages.senderId, id), eq(messages.status, "queued")))
      .returning({ id: messages.id });
    await tx.delete(senders).where(and(eq(senders.id, id), ne(senders.isDefault, true)));
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "sender.deleted",
      targetType: "sender",
      targetId: id,
      metadata: { name: row.name, replacementId: replacement?.id ?? null, movedCampaigns: moved, failedMessages: failed.length },
    });
  });
}
