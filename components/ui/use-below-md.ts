"use client";

import * as React from "react";

const BELOW_MD = "(max-width: 767.98px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(BELOW_MD);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Whether the screen is narrower than Tailwind's `md` (a phone). The server renders the wide
 * layout; a phone switches after hydration. For lists shown as a table on wide screens and as
 * cards on phones, where rendering both would repeat every control and text in the page.
 */
export function useBelowMd(): boolean {
  return React.useSyncExternalStore(subscribe, () => window.matchMedia(BELOW_MD).matches, () => false);
}
