import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { FirstMessageEmptyState } from "@/components/logs/first-message";
import { LogsView, type LogsSearchParams } from "@/components/logs/logs-view";
import { loadLogs } from "@/app/(dashboard)/logs/load-logs";
import { Button } from "@/components/ui/button";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { getDeploymentDetails } from "@/lib/campaigns/deployment";
import { getCampaign } from "@/lib/campaigns/service";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";
import { requestOrigin } from "@/lib/http/request-origin";
import { senderBanner } from "@/lib/senders/banner";

export const metadata: Metadata = { title: "Campaign logs" };

export default async function CampaignLogsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<LogsSearchParams> }) {
  await connection();
  const user = await requireUser();
  const [{ id }, raw] = await Promise.all([pageParams(params), searchParams]);
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  const [logs, banner] = await Promise.all([
    loadLogs(db, { workspaceId: user.workspaceId, campaignId: campaign.id }, `/campaigns/${campaign.id}/logs`, raw),
    senderBanner(db, user.workspaceId),
  ]);
  // The ready-to-run curl example is only needed while the campaign has no messages at all.
  const deployment = logs.ok && logs.noMessages ? await getDeploymentDetails(db, user.workspaceId, campaign, await requestOrigin()) : null;

  // The campaign's Replies: its logs narrowed to what contacts sent.
  const replies = logs.values.direction === "inbound";
  return (
    <LogsView
      data={logs}
      title={`${campaign.name} · ${replies ? "Replies" : "Logs"}`}
      description={
        replies
          ? "What contacts sent in answer to this campaign's messages (attributed to the message they quoted, or the latest one)."
          : "Every message this campaign sent, with its delivery status and the reason of any failure."
      }
      campaignId={campaign.id}
      banner={banner && <SenderBanner banner={banner} />}
      actions={
        <Button asChild variant="ghost">
          <Link href={`/campaigns/${campaign.id}`}>
            <ArrowLeft aria-hidden />
            Campaign
          </Link>
        </Button>
      }
      noMessages={deployment && <FirstMessageEmptyState curl={deployment.curl} campaignId={campaign.id} active={campaign.status === "active"} />}
    />
  );
}
