"use client";

import { Clock, Inbox as InboxIcon, UserRound } from "lucide-react";
import Link from "next/link";
import type { ClientProblem } from "@/lib/http/client";
import { cn } from "@/lib/utils";
import { shortAgo, useNow } from "./relative-time";
import { contactLabel, DEFAULT_FILTERS, type ConversationPage, type InboxFilters, type PublicConversation } from "./types";

/** The conversations, newest activity first: who, the last message, when, unread, assignee and window. */
export function ConversationList({
  page,
  problem,
  loading,
  selectedId,
  query,
  filters,
}: {
  page: ConversationPage | undefined;
  problem: ClientProblem | undefined;
  loading: boolean;
  selectedId: string | null;
  query: string;
  filters: InboxFilters;
}) {
  const now = useNow();
  if (problem && !page) {
    return (
      <p role="alert" className="m-4 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive">
        {problem.detail}
      </p>
    );
  }
  if (!page) {
    return (
      <p className="p-4 text-sm text-muted-foreground" aria-live="polite">
        {loading ? "Loading conversations…" : null}
      </p>
    );
  }
  if (page.data.length === 0) {
    const filtered = JSON.stringify(filters) !== JSON.stringify(DEFAULT_FILTERS);
    return (
      <div className="flex flex-col items-center px-6 py-14 text-center">
        <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-accent text-primary">
          <InboxIcon className="size-5" aria-hidden />
        </div>
        <p className="font-medium">{filtered ? "No conversations match" : "No conversations yet"}</p>
        <p className="mt-1 max-w-64 text-sm text-muted-foreground">
          {filtered ? "Try another filter, or clear the search." : "When a contact answers a campaign or writes to one of your numbers, the conversation starts here."}
        </p>
      </div>
    );
  }
  return (
    <ul aria-label="Conversations" className="min-h-0 flex-1 divide-y overflow-y-auto md:border-b-0">
      {page.data.map((conversation) => (
        <li key={conversation.id}>
          <Row conversation={conversation} selected={conversation.id === selectedId} href={`/inbox/${conversation.id}${query ? `?${query}` : ""}`} now={now} />
        </li>
      ))}
      {page.nextCursor && <li className="px-4 py-3 text-center text-xs text-muted-foreground">Showing the 50 most recent. Narrow the filters to find older ones.</li>}
    </ul>
  );
}

function Row({ conversation, selected, href, now }: { conversation: PublicConversation; selected: boolean; href: string; now: number | null }) {
  const name = contactLabel(conversation.contact);
  const unread = conversation.unread > 0;
  return (
    <Link
      href={href}
      aria-current={selected ? "page" : undefined}
      className={cn(
        "grid grid-cols-[minmax(0,1fr)] gap-1 px-4 py-3 sm:px-8 md:px-4 outline-none transition-colors hover:bg-muted/60 focus-visible:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-inset",
        selected && "bg-accent hover:bg-accent",
      )}
    >
      <span className="flex items-baseline gap-2">
        <span className={cn("min-w-0 flex-1 truncate text-sm", unread ? "font-semibold" : "font-medium")}>{name}</span>
        <time dateTime={conversation.lastActivityAt} className="shrink-0 text-xs text-muted-foreground tabular-nums">
          {now ? shortAgo(conversation.lastActivityAt, now) : null}
        </time>
      </span>
      <span className="flex items-center gap-2">
        <span className={cn("min-w-0 flex-1 truncate text-sm", unread ? "text-foreground" : "text-muted-foreground")}>
          {conversation.lastMessage ? `${conversation.lastMessage.direction === "outbound" ? "You: " : ""}${conversation.lastMessage.preview}` : "No messages yet"}
        </span>
        {unread && (
          <span className="inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground tabular-nums">
            {conversation.unread}
            <span className="sr-only"> unread</span>
          </span>
        )}
      </span>
      <span className="flex items-center gap-3 text-xs text-muted-foreground">
        {name !== conversation.contact.phone && <span className="truncate font-mono">{conversation.contact.phone}</span>}
        <span className="inline-flex items-center gap-1 truncate">
          <UserRound className="size-3" aria-hidden />
          {conversation.assignee ? (conversation.assignee.name ?? "A member") : "Unassigned"}
        </span>
        <WindowChip window={conversation.window} now={now} />
        {conversation.status === "closed" && <span className="rounded bg-muted px-1.5 py-px">Closed</span>}
      </span>
    </Link>
  );
}

function WindowChip({ window, now }: { window: PublicConversation["window"]; now: number | null }) {
  const open = window.open && window.endsAt !== null && (now === null || Date.parse(window.endsAt) > now);
  return (
    <span className={cn("ml-auto inline-flex shrink-0 items-center gap-1", open ? "text-[oklch(0.45_0.12_155)]" : "text-muted-foreground")}>
      <Clock className="size-3" aria-hidden />
      {open ? "Window open" : "Template only"}
    </span>
  );
}
