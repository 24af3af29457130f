"use client";

import { useEffect } from "react";

/**
 * Marks the document `data-hydrated` once React has hydrated it: before that, a control typed into
 * or clicked does nothing its component sees (React keeps its own state). The end-to-end tests wait
 * for it after each page load (e2e/fixtures.ts).
 */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}
