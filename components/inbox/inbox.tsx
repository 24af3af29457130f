"use client";

import * as React from "react";
import { cn } from "@/lib/utils";
import { ConversationList } from "./conversation-list";
import { ConversationPane } from "./conversation-pane";
import { InboxFiltersBar } from "./inbox-filters";
import { announceUnread, filtersToQuery, type ConversationPage, type InboxContext, type InboxFilters, type PublicConversation } from "./types";
import { usePolled } from "./use-polled";

/**
 * The team inbox: the conversations (filtered, newest activity first) beside the open one. On a
 * phone the list and the conversation are two pages (/inbox and /inbox/{id}).
 */
export function Inbox({ context, initialFilters, selected }: { context: InboxContext; initialFilters: InboxFilters; selected: PublicConversation | null }) {
  const [filters, setFilters] = React.useState(initialFilters);
  const query = filtersToQuery(filters).toString();
  const list = usePolled<ConversationPage>(`/api/v1/conversations${query ? `?${query}` : ""}`);

  // The filters live in the address too, so a reload or a shared link shows the same list.
  React.useEffect(() => {
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(window.history.state, "", url);
  }, [query]);

  const unread = list.data?.unreadConversations;
  React.useEffect(() => {
    if (unread !== undefined) announceUnread(unread);
  }, [unread]);

  // The inbox fills the screen below whatever the layout shows above it (a banner, the phone's header).
  const frame = React.useRef<HTMLDivElement>(null);
  React.useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => element.style.setProperty("--inbox-top", `${Math.max(0, element.getBoundingClientRect().top + window.scrollY)}px`);
    measure();
    const observer = new ResizeObserver(measure);
    if (element.parentElement) observer.observe(element.parentElement);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);

  return (
    <div
      ref={frame}
      className={cn(
        "-mx-4 sm:-mx-8 md:mx-0 md:h-[calc(100dvh_-_var(--inbox-top,2rem)_-_2rem)] md:min-h-[30rem] md:overflow-hidden md:rounded-xl md:border md:bg-background md:shadow-xs",
        // A phone shows the conversation edge to edge, its composer at the bottom of the screen.
        selected && "-mb-6 h-[calc(100dvh_-_var(--inbox-top,5rem))] min-h-[28rem] sm:-mb-8 md:mb-0",
      )}
    >
      <div className="flex h-full min-h-0">
        <section
          aria-labelledby="inbox-heading"
          className={cn("flex min-h-0 w-full flex-col md:w-80 md:shrink-0 md:border-r lg:w-96 2xl:w-80", selected && "hidden md:flex")}
        >
          <div className="grid gap-3 border-b px-4 pt-1 pb-3 sm:px-8 md:px-4 md:pt-4">
            <div className="flex items-baseline justify-between gap-2">
              <h1 id="inbox-heading" className="text-xl font-semibold tracking-tight">
                Inbox
              </h1>
              {unread ? <span className="text-xs text-muted-foreground tabular-nums">{unread} unread</span> : null}
            </div>
            <InboxFiltersBar filters={filters} onChange={setFilters} context={context} />
          </div>
          <ConversationList page={list.data} problem={list.problem} loading={list.loading} selectedId={selected?.id ?? null} query={query} filters={filters} />
        </section>
        <div className={cn("flex min-h-0 min-w-0 flex-1", !selected && "hidden md:flex")}>
          {selected ? (
            <ConversationPane key={selected.id} initial={selected} context={context} backHref={`/inbox${query ? `?${query}` : ""}`} onChanged={list.refresh} />
          ) : (
            <div className="flex flex-1 items-center justify-center p-8 text-center">
              <div className="max-w-xs">
                <p className="font-medium">Pick a conversation</p>
                <p className="mt-1 text-sm text-muted-foreground">Replies to your campaigns and messages your contacts send appear on the left as they arrive.</p>
              </div>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
