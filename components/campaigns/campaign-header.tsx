import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import type { CampaignStatus } from "@/lib/campaigns/schemas";
import { CampaignStatusBadge } from "./status-badge";

/** The top of every campaign page: back to the list, the name and status, what kind it is, and its actions. */
export function CampaignHeader({
  name,
  status,
  unsaved = false,
  description,
  children,
}: {
  name: string;
  status: CampaignStatus;
  /** Shows "Unsaved changes" beside the status. */
  unsaved?: boolean;
  description: ReactNode;
  /** The action buttons. */
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
      <div className="min-w-0 flex-1">
        <Link href="/campaigns" className="mb-2 inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-3" aria-hidden /> Campaigns
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold tracking-tight break-words">{name}</h1>
          <CampaignStatusBadge status={status} />
          {unsaved && <span className="text-xs text-muted-foreground">Unsaved changes</span>}
        </div>
        <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      </div>
      {children && <div className="flex shrink-0 flex-wrap gap-2">{children}</div>}
    </header>
  );
}
