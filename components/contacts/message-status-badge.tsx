import { Badge } from "@/components/ui/badge";
import { MESSAGE_STATUS_LABELS } from "./format";

const variants = {
  queued: "secondary",
  sending: "secondary",
  sent: "info",
  delivered: "success",
  read: "default",
  failed: "destructive",
  skipped: "warning",
} as const;

export function MessageStatusBadge({ status }: { status: string }) {
  const variant = variants[status as keyof typeof variants] ?? "outline";
  return <Badge variant={variant}>{MESSAGE_STATUS_LABELS[status] ?? status}</Badge>;
}
