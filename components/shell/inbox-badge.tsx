"use client";

import * as React from "react";
import { UNREAD_EVENT } from "@/components/inbox/types";
import { pollJson } from "@/lib/http/client";

const EVERY_MS = 20_000;

/** Open conversations with unread messages: asked on each navigation, every 20 s while the tab is visible, and told by the inbox as it polls. */
export function useUnreadConversations(pathname: string): number {
  const [count, setCount] = React.useState(0);
  React.useEffect(() => {
    let etag: string | null = null;
    const ask = async () => {
      if (document.visibilityState !== "visible") return;
      const result = await pollJson<{ unreadConversations: number }>("/api/v1/conversations?limit=1", etag);
      if (result.changed) {
        etag = result.etag;
        setCount(result.data.unreadConversations);
      }
    };
    void ask();
    const timer = setInterval(() => void ask(), EVERY_MS);
    const onCount = (event: Event) => setCount((event as CustomEvent<number>).detail);
    window.addEventListener(UNREAD_EVENT, onCount);
    document.addEventListener("visibilitychange", ask);
    return () => {
      clearInterval(timer);
      window.removeEventListener(UNREAD_EVENT, onCount);
      document.removeEventListener("visibilitychange", ask);
    };
  }, [pathname]);
  return count;
}

export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground tabular-nums">
      {count > 99 ? "99+" : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}
