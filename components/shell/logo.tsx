import { cn } from "@/lib/utils";

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight", className)}>
      <svg viewBox="0 0 24 24" className="size-6" aria-hidden>
        <rect width="24" height="24" rx="6" className="fill-primary" />
        <path d="M6 15.5c2.5 0 3-7 6-7s3.5 7 6 7" fill="none" stroke="white" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      Sendstream
    </span>
  );
}
