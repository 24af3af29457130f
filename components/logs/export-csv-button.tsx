import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * Downloads the CSV of exactly what the current filters select. A GET form: the browser streams
 * the attachment straight to disk, however large the export is. Test sends are left out, as the
 * counts leave them out, unless the box is ticked.
 */
export function ExportCsvButton({ action, filters }: { action: string; filters: URLSearchParams }) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-center gap-3">
      {[...filters.entries()].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="flex items-center gap-2 text-sm text-muted-foreground">
        <input type="checkbox" name="include_tests" value="true" className="size-4 accent-[var(--primary)]" />
        Include test sends
      </label>
      <Button type="submit" variant="outline">
        <Download aria-hidden />
        Export CSV
      </Button>
    </form>
  );
}
