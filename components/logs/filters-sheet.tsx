"use client";

import { SlidersHorizontal } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";

/** On phones: the filter form in a sheet, opened by a "Filters" button that counts the active filters. */
export function FiltersSheet({ activeCount, children }: { activeCount: number; children: React.ReactNode }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" className="w-full justify-center">
          <SlidersHorizontal aria-hidden />
          Filters
          {activeCount > 0 && (
            <span className="rounded-full bg-primary px-1.5 text-xs leading-5 font-medium text-primary-foreground tabular-nums">
              {activeCount}
              <span className="sr-only"> active</span>
            </span>
          )}
        </Button>
      </DialogTrigger>
      <DialogContent className="top-auto bottom-0 max-h-[90dvh] w-full max-w-none translate-y-0 rounded-b-none">
        <DialogHeader>
          <DialogTitle>Filter messages</DialogTitle>
          <DialogDescription>Filters apply to the counts and the list; clearing them shows every message.</DialogDescription>
        </DialogHeader>
        <div className="[&_form]:border-0 [&_form]:p-0 [&_form]:shadow-none [&_form>div]:w-full [&_input]:w-full">{children}</div>
      </DialogContent>
    </Dialog>
  );
}
