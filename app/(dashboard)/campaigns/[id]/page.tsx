import type { Metadata } from "next";
import { connection } from "next/server";
import { BulkBuilderPage, BulkCampaignPage } from "@/components/campaigns/bulk/bulk-pages";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";
import { CampaignActivity } from "@/components/campaigns/charts/campaign-activity";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { getDb, type Executor } from "@/db";
import { requireUser } from "@/lib/auth";
import { countFunnel, messagesPerDay } from "@/lib/campaigns/funnel";
import { campaignResource } from "@/lib/campaigns/http";
import { getCampaign, listKnownAttributes } from "@/lib/campaigns/service";
import { senderBanner } from "@/lib/senders/banner";
import { campaignSenderOptions } from "@/lib/senders/options";
import { getSender } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";
import { getWorkspace } from "@/lib/workspaces";
import { requestOrigin } from "@/lib/http/request-origin";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Campaign" };

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
  const [banner, activity] = await Promise.all([
    senderBanner(db, user.workspaceId),
    campaign.status === "draft" ? null : loadActivity(db, user.workspaceId, campaign.id),
  ]);
  const chart = activity && (
    <CampaignActivity funnel={activity.funnel} days={activity.days} logsHref={`/campaigns/${campaign.id}/logs`} withFunnel={campaign.kind !== "bulk"} />
  );

  if (campaign.kind === "bulk") {
    return (
      <div className="grid gap-6">
        <SenderBanner banner={banner} />
        {campaign.status === "draft" ? (
          <BulkBuilderPage db={db} workspaceId={user.workspaceId} campaign={campaign} />
        ) : (
          <BulkCampaignPage db={db} workspaceId={user.workspaceId} campaign={campaign} />
        )}
        {chart}
      </div>
    );
  }
  const senderId = campaign.senderId ?? undefined;
  const [{ deployment }, templates, knownAttributes, sender, workspace, senders] = await Promise.all([
    campaignResource(db, user.workspaceId, campaign, await requestOrigin()),
    listTemplates(db, user.workspaceId, { senderId }),
    listKnownAttributes(db, user.workspaceId),
    getSender(db, user.workspaceId, senderId),
    getWorkspace(db, user.workspaceId),
    campaignSenderOptions(db, user.workspaceId),
  ]);
  return (
    <div className="grid gap-6">
      <SenderBanner banner={banner} />
      <CampaignBuilder
        key={campaign.id}
        initialCampaign={campaign}
        initialDeployment={deployment}
        templates={templates}
        knownAttributes={knownAttributes}
        sender={{ provider: sender.provider, name: workspace?.name ?? "Your business" }}
        senders={senders}
      />
      {chart}
    </div>
  );
}
