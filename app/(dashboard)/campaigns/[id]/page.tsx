import type { Metadata } from "next";
import { connection } from "next/server";
import { BulkPage } from "@/app/(dashboard)/campaigns/[id]/bulk-pages";
import { CampaignActivity } from "@/components/campaigns/charts/campaign-activity";
import { JourneyPanel } from "@/components/campaigns/journey-panel";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { TemplateBanner } from "@/components/campaigns/template-banner";
import { TriggerPage } from "@/app/(dashboard)/campaigns/[id]/trigger-page";
import { getDb, type Executor } from "@/db";
import { requireUser } from "@/lib/auth";
import { countFunnel, messagesPerDay } from "@/lib/campaigns/funnel";
import { campaignKind } from "@/lib/campaigns/kinds";
import type { CampaignKind } from "@/lib/campaigns/schemas";
import { getCampaign, type CampaignView } from "@/lib/campaigns/service";
import { journeyStats } from "@/lib/journeys/analytics";
import { senderBanner } from "@/lib/senders/banner";
import { templateBanner } from "@/lib/templates/review";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Campaign" };

/** Each kind's page (its builder, or its progress once it sends). */
const KIND_PAGES: Record<CampaignKind, (props: { db: Executor; workspaceId: string; campaign: CampaignView }) => React.ReactNode | Promise<React.ReactNode>> = {
  trigger: TriggerPage,
  bulk: BulkPage,
};

/** The campaign's funnel and its last week, once it can have messages. */
async function loadActivity(db: Executor, workspaceId: string, campaignId: string) {
  const scope = { workspaceId, campaignIds: [campaignId] };
  const [funnel, days] = await Promise.all([countFunnel(db, scope), messagesPerDay(db, scope, { days: 7 })]);
  return { funnel, days };
}

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  const { id } = await pageParams(params);
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  const [banner, blockedTemplate, activity, journey] = await Promise.all([
    senderBanner(db, user.workspaceId),
    templateBanner(db, user.workspaceId, campaign.templateId),
    campaign.status === "draft" ? null : loadActivity(db, user.workspaceId, campaign.id),
    campaign.journey && campaign.status !== "draft" ? journeyStats(db, user.workspaceId, campaign.id) : null,
  ]);
  const KindPage = KIND_PAGES[campaign.kind];
  return (
    <div className="grid gap-6">
      <SenderBanner banner={banner} />
      <TemplateBanner banner={blockedTemplate} />
      <KindPage db={db} workspaceId={user.workspaceId} campaign={campaign} />
      {journey && <JourneyPanel version={journey.version} totals={journey.totals} hasGoal={campaign.journey?.goal != null} />}
      {activity && (
        <CampaignActivity
          funnel={activity.funnel}
          days={activity.days}
          logsHref={`/campaigns/${campaign.id}/logs`}
          withFunnel={campaignKind(campaign.kind).view.activityFunnel}
        />
      )}
    </div>
  );
}
