import type { ReactNode } from "react";
import { cn } from "@/lib/utils";
import { CopyButton } from "./copy-button";

/** A shell command to copy and run, with a line saying what to fill in first. */
export function CommandBlock({
  intro,
  command,
  copyLabel,
  regionLabel,
  testId,
  className,
}: {
  intro: ReactNode;
  command: string;
  copyLabel: string;
  regionLabel: string;
  testId: string;
  className?: string;
}) {
  return (
    <>
      <div className="flex min-w-0 items-center justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground">{intro}</p>
        <CopyButton value={command} label={copyLabel} />
      </div>
      <pre
        tabIndex={0}
        role="region"
        aria-label={regionLabel}
        className={cn(
          "min-w-0 overflow-x-auto rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-100 focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none",
          className,
        )}
        data-testid={testId}
      >
        {command}
      </pre>
    </>
  );
}
