import { cn } from "@/lib/utils";

const COLORS: Record<string, string> = {
  GET: "bg-[oklch(0.95_0.05_155)] text-[oklch(0.4_0.12_155)] ring-[oklch(0.85_0.08_155)]",
  POST: "bg-[oklch(0.95_0.04_255)] text-[oklch(0.42_0.16_260)] ring-[oklch(0.85_0.07_260)]",
  PUT: "bg-[oklch(0.96_0.05_75)] text-[oklch(0.45_0.12_60)] ring-[oklch(0.87_0.09_75)]",
  PATCH: "bg-[oklch(0.96_0.04_300)] text-[oklch(0.45_0.15_300)] ring-[oklch(0.86_0.07_300)]",
  DELETE: "bg-[oklch(0.96_0.03_25)] text-[oklch(0.5_0.18_25)] ring-[oklch(0.87_0.06_25)]",
};

export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-14 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-[11px] font-semibold tracking-wide ring-1 ring-inset",
        COLORS[method] ?? "bg-muted text-foreground ring-border",
        className,
      )}
    >
      {method}
    </span>
  );
}
