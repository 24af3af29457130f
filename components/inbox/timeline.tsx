"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import type { ClientProblem } from "@/lib/http/client";
import { TimelineEntry } from "./timeline-item";
import type { TimelineItem } from "./types";

/** Oldest at the top, newest at the bottom; stays at the bottom as messages arrive unless the reader scrolled up. */
export function Timeline({
  items,
  loading,
  problem,
  hasEarlier,
  onLoadEarlier,
}: {
  items: TimelineItem[];
  loading: boolean;
  problem: ClientProblem | undefined;
  hasEarlier: boolean;
  onLoadEarlier: () => Promise<void>;
}) {
  const scroller = React.useRef<HTMLDivElement>(null);
  const atBottom = React.useRef(true);
  const [loadingEarlier, setLoadingEarlier] = React.useState(false);
  const lastId = items.at(-1)?.id;

  React.useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [lastId]);

  // A narrower or shorter screen (a phone turned, the keyboard opening) keeps the newest message in view.
  React.useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  };

  return (
    <div ref={scroller} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto bg-muted/30 px-3 py-4 sm:px-5">
      {problem && (
        <p role="alert" className="mb-3 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive">
          {problem.detail}
        </p>
      )}
      {hasEarlier && (
        <div className="mb-3 flex justify-center">
          <Button
            variant="ghost"
            size="sm"
            disabled={loadingEarlier}
            onClick={async () => {
              atBottom.current = false;
              setLoadingEarlier(true);
              await onLoadEarlier();
              setLoadingEarlier(false);
            }}
          >
            {loadingEarlier ? "Loading…" : "Load earlier messages"}
          </Button>
        </div>
      )}
      {loading && items.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">Loading messages…</p>
      ) : items.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">No messages yet.</p>
      ) : (
        <ol aria-label="Messages" className="grid gap-2.5">
          {items.map((item) => (
            <TimelineEntry key={item.id} item={item} />
          ))}
        </ol>
      )}
    </div>
  );
}
