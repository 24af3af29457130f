"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { cn } from "@/lib/utils";

/** A dark code panel with a title bar and a copy button; the figure's accessible name is `label`. */
export function CodeBlock({ code, label, title, className }: { code: string; label: string; title?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <figure aria-label={label} className={cn("min-w-0 overflow-hidden rounded-lg border border-[oklch(0.3_0.02_275)] bg-[oklch(0.2_0.02_275)]", className)}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-white/10 px-3 py-1.5 text-xs text-white/75">
        <span className="truncate font-medium">{title ?? label}</span>
        <button
          type="button"
          onClick={copy}
          aria-label={`Copy ${label}`}
          className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-white/80 transition hover:bg-white/10 hover:text-white focus-visible:ring-2 focus-visible:ring-white/40 focus-visible:outline-none"
        >
          {copied ? <Check className="size-3.5" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </button>
      </figcaption>
      {/* Scrolls both ways, so it takes keyboard focus (arrow keys scroll it) and names itself. */}
      <pre
        tabIndex={0}
        role="region"
        aria-label={`${label} (scrollable)`}
        className="max-h-[28rem] min-w-0 overflow-auto p-3 font-mono text-[12.5px] leading-relaxed text-[oklch(0.93_0.01_275)] focus-visible:ring-2 focus-visible:ring-white/50 focus-visible:outline-none focus-visible:ring-inset"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
