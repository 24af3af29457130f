import { Badge } from "@/components/ui/badge";

const VARIANTS: Record<string, "success" | "warning" | "destructive" | "secondary"> = {
  APPROVED: "success",
  PENDING: "warning",
  REJECTED: "destructive",
  PAUSED: "destructive",
  DISABLED: "destructive",
};

const LABELS: Record<string, string> = { APPROVED: "Approved", PENDING: "In review", REJECTED: "Rejected", PAUSED: "Paused", DISABLED: "Disabled", DELETED: "Deleted" };

/** A template's review status as a badge. */
export function TemplateStatusBadge({ status }: { status: string }) {
  return <Badge variant={VARIANTS[status] ?? "secondary"}>{LABELS[status] ?? status.toLowerCase()}</Badge>;
}
