"use client";

import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

export { toast } from "sonner";

// Sonner's rich colours put text of 3:1 to 4.4:1 on their tinted backgrounds; these darker shades of
// the same hues reach WCAG AA (4.5:1) on each.
const READABLE_RICH_COLORS = {
  "--success-text": "hsl(140, 100%, 20%)",
  "--info-text": "hsl(210, 92%, 32%)",
  "--warning-text": "hsl(31, 92%, 27%)",
  "--error-text": "hsl(360, 100%, 36%)",
} as CSSProperties;

export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton style={READABLE_RICH_COLORS} toastOptions={{ className: "font-sans" }} />;
}
