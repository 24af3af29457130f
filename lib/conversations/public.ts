// A conversation as callers see it: the inbox list, the conversation page and the REST API return
// the same object.
import type { ConsentStatus, ConversationStatus, conversations } from "@/db/schema";
import { SERVICE_WINDOW_MS } from "./schemas";

export interface PublicConversation {
  id: string;
  object: "conversation";
  status: ConversationStatus;
  contact: { id: string; phone: string; name: string | null; optedOut: boolean; consentStatus: ConsentStatus };
  /** The number: its id, name and display number. */
  sender: { id: string; name: string | null; phone: string | null };
  assignee: { id: string; name: string | null } | null;
  /** The campaign whose message the contact's first reply answered. */
  campaign: { id: string; name: string | null } | null;
  /** Inbound messages no member has opened yet. */
  unread: number;
  lastMessage: { direction: "inbound" | "outbound"; preview: string } | null;
  lastActivityAt: string;
  lastInboundAt: string | null;
  /**
   * WhatsApp's customer-service window: free-form replies until `endsAt` (24 h after the contact's
   * last message); templates only once it is closed (`open: false`, `endsAt` in the past or null).
   */
  window: { open: boolean; endsAt: string | null };
  closedAt: string | null;
  createdAt: string;
}

export type ConversationRow = typeof conversations.$inferSelect & {
  contact: PublicConversation["contact"];
  senderName: string | null;
  senderPhone: string | null;
  assigneeName: string | null;
  campaignName: string | null;
};

/** When the window closes (null: the contact never wrote) and whether it is open at `now`. */
export function serviceWindow(lastInboundAt: Date | null, now: Date): PublicConversation["window"] {
  if (!lastInboundAt) return { open: false, endsAt: null };
  const endsAt = new Date(lastInboundAt.getTime() + SERVICE_WINDOW_MS);
  return { open: endsAt.getTime() > now.getTime(), endsAt: endsAt.toISOString() };
}

export function toPublicConversation(row: ConversationRow, now: Date): PublicConversation {
  return {
    id: row.id,
    object: "conversation",
    status: row.status,
    contact: row.contact,
    sender: { id: row.senderId, name: row.senderName, phone: row.senderPhone },
    assignee: row.assigneeUserId ? { id: row.assigneeUserId, name: row.assigneeName } : null,
    campaign: row.campaignId ? { id: row.campaignId, name: row.campaignName } : null,
    unread: row.unread,
    lastMessage: row.lastDirection && row.lastPreview !== null ? { direction: row.lastDirection, preview: row.lastPreview } : null,
    lastActivityAt: row.lastActivityAt.toISOString(),
    lastInboundAt: row.lastInboundAt?.toISOString() ?? null,
    window: serviceWindow(row.lastInboundAt, now),
    closedAt: row.closedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
