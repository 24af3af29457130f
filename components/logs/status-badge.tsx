import { Badge } from "@/components/ui/badge";
import { STATUS_LABELS } from "@/lib/logs/format";
import type { LogStatus } from "@/lib/statuses/messages";

const variants = {
  queued: "secondary",
  sent: "info",
  delivered: "success",
  read: "default",
  failed: "destructive",
  skipped: "warning",
} as const;

export function LogStatusBadge({ status }: { status: LogStatus }) {
  return <Badge variant={variants[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** A queued message whose last attempt failed and that will be tried again. */
export function RetryingBadge() {
  return <Badge variant="warning">Retrying</Badge>;
}
