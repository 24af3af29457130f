import { getDb } from "@/db";
import { campaigns, inboundMessages, messages, type MessageSource, type MessageStatus } from "@/db/schema";
import { newId } from "@/lib/crypto/random";

/** A bare campaign row (logs need nothing more than an id, a name and a workspace). */
export async function insertCampaignRow(workspaceId: string, overrides: { name?: string } = {}) {
  const db = await getDb();
  const [campaign] = await db
    .insert(campaigns)
    .values({ id: newId("cmp"), workspaceId, name: overrides.name ?? "Order updates", status: "active" })
    .returning();
  return campaign!;
}

export interface MessageRowInput {
  phoneNumber?: string;
  templateName?: string;
  templateLanguage?: string;
  renderedText?: string;
  status?: MessageStatus;
  errorCode?: string | null;
  errorReason?: string | null;
  createdAt?: Date;
  sentAt?: Date | null;
  deliveredAt?: Date | null;
  readAt?: Date | null;
  failedAt?: Date | null;
  source?: MessageSource;
}

/** Message rows as the trigger and the dispatcher would have left them. */
export async function insertMessageRows(workspaceId: string, campaignId: string, rows: MessageRowInput[]) {
  const db = await getDb();
  if (!rows.length) return [];
  return db
    .insert(messages)
    .values(
      rows.map((row) => ({
        id: newId("msg"),
        workspaceId,
        campaignId,
        phoneNumber: row.phoneNumber ?? "+14155550100",
        templateName: row.templateName ?? "order_update",
        templateLanguage: row.templateLanguage ?? "en_US",
        renderedText: row.renderedText ?? "Hi Ada, your order shipped.",
        status: row.status ?? "queued",
        errorCode: row.errorCode ?? null,
        errorReason: row.errorReason ?? null,
        ...(row.createdAt ? { createdAt: row.createdAt } : {}),
        sentAt: row.sentAt ?? null,
        deliveredAt: row.deliveredAt ?? null,
        readAt: row.readAt ?? null,
        failedAt: row.failedAt ?? null,
        ...(row.source ? { source: row.source } : {}),
      })),
    )
    .returning();
}

export interface InboundRowInput {
  phoneNumber?: string;
  kind?: (typeof inboundMessages.$inferInsert)["kind"];
  text?: string | null;
  payload?: string | null;
  media?: (typeof inboundMessages.$inferInsert)["media"];
  replyToMessageId?: string | null;
  createdAt?: Date;
}

/** Replies contacts sent to a campaign's messages, as lib/inbound would have stored them. */
export async function insertInboundRows(workspaceId: string, campaignId: string | null, rows: InboundRowInput[]) {
  const db = await getDb();
  if (!rows.length) return [];
  return db
    .insert(inboundMessages)
    .values(
      rows.map((row) => ({
        id: newId("inm"),
        workspaceId,
        phoneNumber: row.phoneNumber ?? "+14155550100",
        providerMessageId: `wamid.IN${newId("x")}`,
        kind: row.kind ?? "text",
        text: row.text === undefined ? "Thanks!" : row.text,
        payload: row.payload ?? null,
        media: row.media ?? null,
        replyToMessageId: row.replyToMessageId ?? null,
        campaignId,
        receivedAt: row.createdAt ?? new Date(),
        ...(row.createdAt ? { createdAt: row.createdAt } : {}),
      })),
    )
    .returning();
}
