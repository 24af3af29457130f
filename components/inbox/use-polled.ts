"use client";

import * as React from "react";
import { pollJson, type ClientProblem } from "@/lib/http/client";

/**
 * GETs `url` now and every `ms` while the tab is visible, with `If-None-Match` (an unchanged answer
 * is a 304 and keeps the data as it is). Coming back to the tab asks at once. `refresh()` asks now.
 */
export function usePolled<T>(url: string | null, ms = 1500) {
  const [state, setState] = React.useState<{ url: string; data?: T; problem?: ClientProblem } | null>(null);
  const etag = React.useRef<{ url: string; tag: string | null } | null>(null);
  const busy = React.useRef<string | null>(null);
  const current = React.useRef(url);
  React.useLayoutEffect(() => {
    current.current = url;
  }, [url]);

  const refresh = React.useCallback(async () => {
    const target = current.current;
    if (!target || busy.current === target) return;
    busy.current = target;
    try {
      const seen = etag.current?.url === target ? etag.current.tag : null;
      const result = await pollJson<T>(target, seen);
      if (current.current !== target) return;
      if (result.changed) {
        etag.current = { url: target, tag: result.etag };
        setState({ url: target, data: result.data });
      } else if ("problem" in result) {
        setState((previous) => ({ url: target, data: previous?.url === target ? previous.data : undefined, problem: result.problem }));
      }
    } finally {
      if (busy.current === target) busy.current = null;
    }
  }, []);

  React.useEffect(() => {
    if (!url) return;
    void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void refresh();
    }, ms);
    const onVisible = () => {
      if (document.visibilityState === "visible") void refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [url, ms, refresh]);

  const fresh = state && state.url === url;
  return { data: fresh ? state.data : undefined, problem: fresh ? state.problem : undefined, loading: Boolean(url) && !fresh, refresh };
}
