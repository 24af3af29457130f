"use client";

import * as React from "react";
import { requestJson } from "@/lib/http/client";
import { Composer } from "./composer";
import { ContactPanel } from "./contact-panel";
import { ConversationHeader } from "./conversation-header";
import { Timeline } from "./timeline";
import type { ConversationDetail, InboxContext, PublicConversation, TimelineItem } from "./types";
import { usePolled } from "./use-polled";

/**
 * One conversation, live: polled every 1.5 s (304 while nothing changed), so the contact's new
 * messages and another member's replies appear as they arrive. Opening it, and any new message
 * while it is open, marks it read.
 */
export function ConversationPane({
  initial,
  context,
  backHref,
  onChanged,
}: {
  initial: PublicConversation;
  context: InboxContext;
  backHref: string;
  /** Something changed that the list shows (read, assigned, closed, replied). */
  onChanged: () => void;
}) {
  const url = `/api/v1/conversations/${initial.id}`;
  const detail = usePolled<ConversationDetail>(url);
  const [local, setLocal] = React.useState<PublicConversation | null>(null);
  const conversation: PublicConversation = detail.data ?? local ?? initial;
  const { refresh } = detail;

  const unread = conversation.unread;
  const visibleUnread = detail.data ? unread : 0;
  React.useEffect(() => {
    if (visibleUnread <= 0 || document.visibilityState !== "visible") return;
    void requestJson(`${url}/read`, { method: "POST" }).then(() => {
      void refresh();
      onChanged();
    });
  }, [visibleUnread, conversation.lastInboundAt, url, refresh, onChanged]);

  const changed = React.useCallback(
    (next?: PublicConversation) => {
      if (next) setLocal(next);
      void refresh();
      onChanged();
    },
    [refresh, onChanged],
  );

  const sandbox = context.senders.find((sender) => sender.id === conversation.sender.id)?.sandbox ?? false;
  const simulated = sandbox ? () => changed() : undefined;

  const [older, setOlder] = React.useState<{ items: TimelineItem[]; cursor: string | null } | null>(null);
  const cursor = older ? older.cursor : (detail.data?.timeline.nextCursor ?? null);
  const loadEarlier = React.useCallback(async () => {
    if (!cursor) return;
    const result = await requestJson<{ data: TimelineItem[]; nextCursor: string | null }>(`${url}/timeline?cursor=${encodeURIComponent(cursor)}`);
    if (result.ok) setOlder((previous) => ({ items: [...(previous?.items ?? []), ...result.data.data], cursor: result.data.nextCursor }));
  }, [cursor, url]);

  const items = React.useMemo(() => {
    const byId = new Map<string, TimelineItem>();
    for (const item of [...(older?.items ?? []), ...(detail.data?.timeline.data ?? [])]) byId.set(item.id, item);
    return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }, [older, detail.data]);

  return (
    <div className="flex min-h-0 flex-1">
      <section aria-label={`Conversation with ${conversation.contact.name ?? conversation.contact.phone}`} className="flex min-h-0 min-w-0 flex-1 flex-col">
        <ConversationHeader conversation={conversation} context={context} backHref={backHref} onChanged={changed} />
        <div className="2xl:hidden">
          <ContactPanel conversation={conversation} collapsible onSimulated={simulated} />
        </div>
        <Timeline items={items} loading={!detail.data} problem={detail.problem} hasEarlier={Boolean(cursor)} onLoadEarlier={loadEarlier} />
        <Composer conversation={conversation} onSent={() => changed()} />
      </section>
      <aside aria-label="Contact" className="hidden w-64 shrink-0 overflow-y-auto border-l 2xl:block">
        <ContactPanel conversation={conversation} onSimulated={simulated} />
      </aside>
    </div>
  );
}
