"use client";

import { ChevronDownIcon } from "lucide-react";
import type * as React from "react";
import { useIsClient } from "@/components/ui/use-is-client";
import { cn } from "@/lib/utils";

/**
 * A styled native <select>: keyboard, screen-reader and form behaviour come from the browser. It is
 * disabled until the page has hydrated: a choice made before that would be put back by React.
 */
export function NativeSelect({ className, children, disabled, ...props }: React.ComponentProps<"select">) {
  const hydrated = useIsClient();
  return (
    <div className={cn("relative", className)}>
      <select
        className="h-9 w-full appearance-none rounded-md border border-input bg-background py-1 pr-8 pl-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive"
        disabled={disabled || !hydrated}
        {...props}
      >
        {children}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 opacity-50" aria-hidden />
    </div>
  );
}
