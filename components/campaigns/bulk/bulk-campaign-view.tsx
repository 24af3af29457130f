"use client";

import { CalendarClock, FileText, Hourglass, MessageSquareReply } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Banner } from "../builder-parts";
import { CampaignHeader } from "../campaign-header";
import type { BulkCampaign } from "./bulk-draft";
import { CampaignActions } from "./campaign-actions";
import { LocalTime } from "./local-time";
import { ProgressPanel } from "./progress-panel";
import { RetargetMenu } from "./retarget-menu";
import type { CampaignProgress } from "./types";
import { useCampaignProgress } from "./use-progress";
import type { CampaignStatus } from "@/lib/campaigns/schemas";

const FINISHED = new Set(["completed", "cancelled", "archived"]);

/** A launched (or scheduled) bulk campaign: live status, progress, controls and what to do next. */
export function BulkCampaignView({ campaign, initialProgress, audienceSummary }: { campaign: BulkCampaign; initialProgress: CampaignProgress | null; audienceSummary: string }) {
  const router = useRouter();
  const { progress, refresh } = useCampaignProgress(campaign.id, initialProgress, campaign.status);
  const status = (progress?.status ?? campaign.status) as CampaignStatus;

  // The page's server-rendered parts (timestamps, the status in the header) follow a status change.
  const lastStatus = useRef(status);
  useEffect(() => {
    if (lastStatus.current !== status) {
      lastStatus.current = status;
      router.refresh();
    }
  }, [status, router]);

  return (
    <div className="grid grid-cols-1 gap-6">
      <CampaignHeader
        name={campaign.name}
        status={status}
        description={
          <>
            Bulk campaign · {campaign.template ? <span className="font-mono text-xs">{campaign.template.name}</span> : "no template"} · {audienceSummary}
          </>
        }
      >
        <Button variant="ghost" asChild>
          <Link href={`/campaigns/${campaign.id}/logs`}>
            <FileText aria-hidden /> View logs
          </Link>
        </Button>
        {status !== "draft" && (
          <Button variant="ghost" asChild>
            <Link href={`/campaigns/${campaign.id}/logs?direction=inbound`}>
              <MessageSquareReply aria-hidden /> Replies
            </Link>
          </Button>
        )}
        {FINISHED.has(status) && progress && progress.total > 0 && <RetargetMenu campaignId={campaign.id} funnel={progress.funnel} />}
        <CampaignActions campaignId={campaign.id} status={status} onChanged={refresh} />
      </CampaignHeader>

      <StatusBanner campaign={campaign} status={status} progress={progress} />
      {progress ? (
        <ProgressPanel progress={progress} />
      ) : (
        <p className="text-sm text-muted-foreground" role="status">
          Loading progress…
        </p>
      )}
    </div>
  );
}

function StatusBanner({ campaign, status, progress }: { campaign: BulkCampaign; status: CampaignStatus; progress: CampaignProgress | null }) {
  const bulk = campaign.bulk;
  if (status === "scheduled" && bulk?.scheduledAt) {
    return (
      <Banner tone="info" icon={<CalendarClock aria-hidden />}>
        Scheduled for{" "}
        <strong className="font-medium">
          <LocalTime value={bulk.scheduledAt} zone={bulk.timeZone ?? undefined} />
        </strong>
        {bulk.timeZone && (
          <>
            {" "}
            (<LocalTime value={bulk.scheduledAt} /> your time)
          </>
        )}
        . The audience is taken at that moment; you can still edit or cancel it.
      </Banner>
    );
  }
  if (progress?.waitingUntil && (status === "sending" || status === "paused")) {
    return (
      <Banner tone="info" icon={<Hourglass aria-hidden />}>
        <strong className="font-medium">Waiting for the daily messaging limit.</strong> {progress.held.toLocaleString("en-US")} messages are held; the next ones can
        go from <LocalTime value={progress.waitingUntil} />, the rest as the rolling 24 h frees up.
      </Banner>
    );
  }
  if (status === "paused") {
    return (
      <Banner tone="muted" icon={<Hourglass aria-hidden />}>
        Paused: nothing new is sent until you resume. Delivery updates of messages already sent keep arriving.
      </Banner>
    );
  }
  if (status === "cancelled") {
    return (
      <Banner tone="muted" icon={<Hourglass aria-hidden />}>
        Cancelled: messages that had not gone out were skipped.
      </Banner>
    );
  }
  if (status === "completed") {
    return (
      <Banner tone="success" icon={<CalendarClock aria-hidden />}>
        Completed{bulk?.completedAt ? " " : ""}
        {bulk?.completedAt && <LocalTime value={bulk.completedAt} />}. Every message is settled.
      </Banner>
    );
  }
  return null;
}
