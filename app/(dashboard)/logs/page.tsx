import { FileText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { LogsView, type LogsSearchParams } from "@/components/logs/logs-view";
import { loadLogs } from "@/app/(dashboard)/logs/load-logs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { listLogsCampaignOptions } from "@/lib/logs/campaign";
import { filtersToSearchParams } from "@/lib/logs/filters";
import { senderBanner } from "@/lib/senders/banner";
import { logsHref } from "@/lib/logs/links";

export const metadata: Metadata = { title: "Logs" };

const TITLE = "Logs";
const DESCRIPTION = "Every message your campaigns send, with its delivery status and any error. Pick a campaign for live updates and CSV export.";

/** Recent messages of every campaign; picking a campaign opens its own logs (live, with export). */
export default async function LogsPage({ searchParams }: { searchParams: Promise<LogsSearchParams> }) {
  await connection();
  const user = await requireUser();
  const raw = await searchParams;
  const db = await getDb();
  const campaigns = await listLogsCampaignOptions(db, user.workspaceId);

  const picked = typeof raw.campaign === "string" ? campaigns.find((campaign) => campaign.id === raw.campaign) : undefined;
  if (picked) redirect(logsHref(`/campaigns/${picked.id}/logs`, filtersToSearchParams(raw)));

  if (campaigns.length === 0) {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <EmptyState
          icon={<FileText aria-hidden />}
          title="No messages yet"
          description="Messages appear here as soon as a deployed campaign is triggered. Create and deploy a campaign, then call its webhook to send the first one."
          action={
            <Link href="/campaigns" className="text-sm text-primary underline-offset-4 hover:underline">
              Go to campaigns
            </Link>
          }
        />
      </>
    );
  }

  const [logs, banner] = await Promise.all([loadLogs(db, { workspaceId: user.workspaceId }, "/logs", raw), senderBanner(db, user.workspaceId)]);
  return (
    <LogsView
      data={logs}
      title={TITLE}
      description={DESCRIPTION}
      banner={banner && <SenderBanner banner={banner} />}
      campaigns={campaigns}
      noMessages={
        <EmptyState
          icon={<FileText aria-hidden />}
          title="No messages yet"
          description="Messages appear here as soon as a deployed campaign is triggered. Open a campaign's logs for a ready-to-run curl example."
        />
      }
    />
  );
}
