// The JSON body of an event, rendered from the row the database trigger captured when the change
// committed (snake_case columns, timestamps as text). A message event carries the same message
// object as `GET /api/v1/messages/{id}`, as it was at that moment; `message.received` the inbound
// message of a contact's timeline; `conversation.*` the conversation's own fields (the snapshot has
// no joins: ids, not names).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import type { ConversationStatus, MessageSource, MessageStatus, WebhookEventType } from "@/db/schema";
import type { InboundKind } from "@/lib/channels/types";
import { toPublicInboundMessage, type PublicInboundMessageRow } from "@/lib/inbound/public";
import { toPublicMessage, type PublicMessageRow } from "@/lib/messaging/public-message";

export interface StoredEvent {
  id: string;
  type: WebhookEventType;
  createdAt: Date;
  snapshot: Record<string, unknown>;
}

type Snapshot = Record<string, unknown>;

const text = (row: Snapshot, key: string): string => String(row[key] ?? "");
const textOrNull = (row: Snapshot, key: string): string | null => (row[key] == null ? null : String(row[key]));
const dateOrNull = (row: Snapshot, key: string): Date | null => (row[key] == null ? null : new Date(String(row[key])));
const isoOrNull = (row: Snapshot, key: string): string | null => dateOrNull(row, key)?.toISOString() ?? null;

export function messageFromSnapshot(row: Snapshot): PublicMessageRow {
  return {
    id: text(row, "id"),
    status: text(row, "status") as MessageStatus,
    campaignId: textOrNull(row, "campaign_id"),
    phoneNumber: text(row, "phone_number"),
    templateName: textOrNull(row, "template_name"),
    templateLanguage: textOrNull(row, "template_language"),
    renderedText: text(row, "rendered_text"),
    providerMessageId: textOrNull(row, "wamid"),
    errorCode: textOrNull(row, "error_code"),
    errorReason: textOrNull(row, "error_reason"),
    attempts: Number(row.attempts ?? 0),
    nextAttemptAt: dateOrNull(row, "next_attempt_at") ?? new Date(0),
    source: text(row, "source") as MessageSource,
    createdAt: dateOrNull(row, "created_at") ?? new Date(0),
    updatedAt: dateOrNull(row, "updated_at") ?? new Date(0),
    sentAt: dateOrNull(row, "sent_at"),
    deliveredAt: dateOrNull(row, "delivered_at"),
    readAt: dateOrNull(row, "read_at"),
    failedAt: dateOrNull(row, "failed_at"),
    repliedAt: dateOrNull(row, "replied_at"),
  };
}

export function inboundMessageFromSnapshot(row: Snapshot): PublicInboundMessageRow {
  const json = <T>(key: string) => (row[key] == null ? null : (row[key] as T));
  return {
    id: text(row, "id"),
    kind: text(row, "kind") as InboundKind,
    phoneNumber: text(row, "phone_number"),
    contactId: textOrNull(row, "contact_id"),
    senderId: textOrNull(row, "sender_id"),
    text: textOrNull(row, "text"),
    payload: textOrNull(row, "payload"),
    media: json<PublicInboundMessageRow["media"]>("media"),
    location: json<PublicInboundMessageRow["location"]>("location"),
    reaction: json<PublicInboundMessageRow["reaction"]>("reaction"),
    providerMessageId: text(row, "provider_message_id"),
    replyToMessageId: textOrNull(row, "reply_to_message_id"),
    campaignId: textOrNull(row, "campaign_id"),
    receivedAt: dateOrNull(row, "received_at") ?? new Date(0),
    createdAt: dateOrNull(row, "created_at") ?? new Date(0),
  };
}

/** What `conversation.assigned` and `conversation.closed` carry: the conversation's row as it was then. */
export interface ConversationEventData {
  object: "conversation";
  id: string;
  status: ConversationStatus;
  contactId: string;
  senderId: string;
  /** The member's user id (`conversation.assigned`: the new assignee). */
  assigneeId: string | null;
  /** The campaign whose message the contact's first reply answered. */
  campaignId: string | null;
  unread: number;
  lastInboundAt: string | null;
  lastActivityAt: string | null;
  closedAt: string | null;
  createdAt: string | null;
}

function conversationFromSnapshot(row: Snapshot): ConversationEventData {
  return {
    object: "conversation",
    id: text(row, "id"),
    status: text(row, "status") as ConversationStatus,
    contactId: text(row, "contact_id"),
    senderId: text(row, "sender_id"),
    assigneeId: textOrNull(row, "assignee_user_id"),
    campaignId: textOrNull(row, "campaign_id"),
    unread: Number(row.unread ?? 0),
    lastInboundAt: isoOrNull(row, "last_inbound_at"),
    lastActivityAt: isoOrNull(row, "last_activity_at"),
    closedAt: isoOrNull(row, "closed_at"),
    createdAt: isoOrNull(row, "created_at"),
  };
}

/**
 * An inbound message's snapshot with the links made right after it was stored (in the same call):
 * the contact, when a concurrent delivery created it, and the campaign it answers when attributed
 * by the workspace's window rather than quoted. Nothing the snapshot holds is replaced.
 */
export async function withInboundLinks(db: Executor, snapshot: Snapshot): Promise<Snapshot> {
  const [current] = await queryRows<{ contact_id: string | null; reply_to_message_id: string | null; campaign_id: string | null }>(
    db,
    sql`select contact_id, reply_to_message_id, campaign_id from inbound_messages where id = ${text(snapshot, "id")}`,
  );
  if (!current) return snapshot;
  return {
    ...snapshot,
    contact_id: snapshot.contact_id ?? current.contact_id,
    reply_to_message_id: snapshot.reply_to_message_id ?? current.reply_to_message_id,
    campaign_id: snapshot.campaign_id ?? current.campaign_id,
  };
}

function eventData(event: StoredEvent): Record<string, unknown> {
  const row = event.snapshot;
  if (event.type === "message.received") return toPublicInboundMessage(inboundMessageFromSnapshot(row)) as unknown as Record<string, unknown>;
  if (event.type === "conversation.assigned" || event.type === "conversation.closed") return conversationFromSnapshot(row) as unknown as Record<string, unknown>;
  if (event.type.startsWith("message.")) return toPublicMessage(messageFromSnapshot(row)) as unknown as Record<string, unknown>;
  if (event.type === "campaign.completed") {
    return {
      object: "campaign",
      id: text(row, "id"),
      name: text(row, "name"),
      kind: text(row, "kind"),
      status: text(row, "status"),
      launchedAt: isoOrNull(row, "launched_at"),
      completedAt: isoOrNull(row, "completed_at"),
      /** Messages per status when it completed. */
      counts: (row.counts as Record<string, number> | undefined) ?? {},
    };
  }
  if (event.type === "contact.opted_out") {
    return {
      object: "contact",
      id: text(row, "id"),
      phone: text(row, "phone_number"),
      name: textOrNull(row, "name"),
      optedOut: true,
      optedOutAt: isoOrNull(row, "opted_out_at"),
      optOutMethod: textOrNull(row, "opt_out_method"),
      optOutDetail: textOrNull(row, "opt_out_detail"),
    };
  }
  return { object: "webhook_test", ...row };
}

/** `{ id, type, timestamp, data }`: the body every attempt of this event signs and sends. */
export function renderEventBody(event: StoredEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: eventData(event) });
}
