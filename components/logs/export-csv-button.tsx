import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * Downloads the CSV of exactly what the current filters select. A GET form: the browser streams
 * the attachment straight to disk, however large the export is.
 */
export function ExportCsvButton({ action, filters }: { action: string; filters: URLSearchParams }) {
  return (
    <form method="get" action={action}>
      {[...filters.entries()].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="outline">
        <Download aria-hidden />
        Export CSV
      </Button>
    </form>
  );
}
