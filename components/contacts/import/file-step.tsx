"use client";

import { FileUp } from "lucide-react";
import * as React from "react";
import { cn } from "@/lib/utils";

/** Step 1: a CSV file, picked or dropped. Nothing is uploaded until the last step. */
export function FileStep({ onFile, error, disabled }: { onFile: (file: File) => void; error: string | null; disabled: boolean }) {
  const [over, setOver] = React.useState(false);
  return (
    <div className="grid gap-3">
      {/* Before its label, so the label can show the input's keyboard focus (Tab, then Enter or Space opens the file picker). */}
      <input
        id="import-file"
        type="file"
        accept=".csv,text/csv"
        // Enabled once the workspace's attributes are known, so the column guesses can use them.
        disabled={disabled}
        aria-label="CSV file"
        className="peer sr-only"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = "";
        }}
      />
      <label
        htmlFor="import-file"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          const file = event.dataTransfer.files[0];
          if (file && !disabled) onFile(file);
        }}
        className={cn(
          "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border border-dashed px-6 py-14 text-center transition-colors hover:bg-muted/40 peer-focus-visible:border-primary peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50",
          over && "border-primary bg-primary/5",
        )}
      >
        <span className="flex size-11 items-center justify-center rounded-full bg-accent text-primary">
          <FileUp className="size-5" aria-hidden />
        </span>
        <span className="text-sm font-medium">Drop a CSV file here, or click to choose one</span>
        <span className="max-w-md text-xs text-muted-foreground">
          The first row holds the column names. One column must hold phone numbers; files with a million rows are fine.
        </span>
      </label>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  );
}
