import { Badge } from "@/components/ui/badge";
import type { CampaignStatus } from "@/lib/campaigns/schemas";

const STYLES: Record<CampaignStatus, { label: string; variant: "secondary" | "success" | "warning" | "outline" }> = {
  draft: { label: "Draft", variant: "secondary" },
  active: { label: "Active", variant: "success" },
  paused: { label: "Paused", variant: "warning" },
  archived: { label: "Archived", variant: "outline" },
  scheduled: { label: "Scheduled", variant: "secondary" },
  sending: { label: "Sending", variant: "success" },
  completed: { label: "Completed", variant: "outline" },
  cancelled: { label: "Cancelled", variant: "outline" },
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const style = STYLES[status];
  return (
    <Badge variant={style.variant} data-testid="campaign-status">
      {(status === "active" || status === "sending") && <span className="size-1.5 rounded-full bg-current" aria-hidden />}
      {style.label}
    </Badge>
  );
}

const TEMPLATE_STATUS_LABELS: Record<string, string> = {
  APPROVED: "Approved",
  PENDING: "Pending review",
  REJECTED: "Rejected",
  PAUSED: "Paused by WhatsApp",
  DISABLED: "Disabled",
  DELETED: "Deleted in WhatsApp Manager",
};

export function templateStatusLabel(status: string): string {
  return TEMPLATE_STATUS_LABELS[status] ?? status.charAt(0) + status.slice(1).toLowerCase();
}
