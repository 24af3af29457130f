"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * A link prefetched once the pointer, the focus or a touch reaches it, not when it scrolls into view:
 * navigation shown on every page (the sidebar, section tabs) prefetched on sight asked the server to
 * render each of its pages on every page view (each a function invocation on Vercel), and the browser
 * to read them. A click still navigates in the client.
 */
export function IntentPrefetchLink(props: ComponentProps<typeof Link>) {
  const [intent, setIntent] = useState(false);
  const show = () => setIntent(true);
  return <Link {...props} prefetch={intent ? null : false} onMouseEnter={show} onFocus={show} onTouchStart={show} />;
}
