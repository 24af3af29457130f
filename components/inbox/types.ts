// Shapes of the /api/v1/conversations responses and what the inbox page loads on the server.
import type { PublicConversation } from "@/lib/conversations/public";
import type { TimelineItem } from "@/lib/conversations/timeline";
import type { TemplateVariable } from "@/lib/templates/types";

export type { PublicConversation, TimelineItem };

export interface ConversationPage {
  data: PublicConversation[];
  nextCursor: string | null;
  unreadConversations: number;
}

export type ConversationDetail = PublicConversation & { timeline: { data: TimelineItem[]; nextCursor: string | null } };

export interface InboxMember {
  id: string;
  name: string;
  email: string;
}

/** What the page loads once: who is looking, who can be assigned, and what the filters offer. */
export interface InboxContext {
  me: { id: string };
  members: InboxMember[];
  /** `sandbox`: the built-in sandbox number, where a member can simulate the contact's replies. */
  senders: { id: string; label: string; sandbox: boolean }[];
  campaigns: { id: string; name: string }[];
}

export interface InboxFilters {
  assigned: "all" | "mine" | "unassigned";
  status: "open" | "closed" | "all";
  senderId: string;
  campaignId: string;
  unread: boolean;
  search: string;
}

export const DEFAULT_FILTERS: InboxFilters = { assigned: "all", status: "open", senderId: "", campaignId: "", unread: false, search: "" };

/** A template as `GET /api/v1/templates` lists it (the fields the composer reads). */
export interface ReplyTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: { type?: string; text?: string; format?: string }[];
  variables: TemplateVariable[];
}

export function filtersToQuery(filters: InboxFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.assigned !== "all") query.set("assigned", filters.assigned);
  if (filters.status !== "open") query.set("status", filters.status);
  if (filters.senderId) query.set("senderId", filters.senderId);
  if (filters.campaignId) query.set("campaignId", filters.campaignId);
  if (filters.unread) query.set("unread", "true");
  if (filters.search.trim()) query.set("search", filters.search.trim());
  return query;
}

export function filtersFromQuery(raw: Record<string, string | string[] | undefined>): InboxFilters {
  const one = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : "");
  const assigned = one("assigned");
  const status = one("status");
  return {
    assigned: assigned === "mine" || assigned === "unassigned" ? assigned : "all",
    status: status === "closed" || status === "all" ? status : "open",
    senderId: one("senderId"),
    campaignId: one("campaignId"),
    unread: one("unread") === "true",
    search: one("search"),
  };
}

/** The contact's name, or their number when they have none. */
export const contactLabel = (contact: PublicConversation["contact"]) => contact.name?.trim() || contact.phone;

/** Tells the navigation's badge the latest count the inbox read, so it changes at once. */
export const UNREAD_EVENT = "sendstream:inbox-unread";
export function announceUnread(count: number) {
  window.dispatchEvent(new CustomEvent(UNREAD_EVENT, { detail: count }));
}
