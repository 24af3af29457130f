"use client";

import { useEffect } from "react";

/** Calls `tick` every `ms` while the tab is visible (a hidden tab asks the server for nothing); off when `enabled` is false. */
export function useVisibleInterval(tick: () => void | Promise<void>, ms: number, enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void tick();
    }, ms);
    return () => clearInterval(timer);
  }, [tick, ms, enabled]);
}
