import type { Metadata } from "next";
import { connection } from "next/server";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { campaignResource } from "@/lib/campaigns/http";
import { getCampaign, listKnownAttributes } from "@/lib/campaigns/service";
import { getSender } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";
import { getWorkspace } from "@/lib/workspaces";
import { requestOrigin } from "@/lib/http/request-origin";
import { orNotFound } from "@/lib/http/page-not-found";

export const metadata: Metadata = { title: "Campaign" };

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  const { id } = await params;
  const db = await getDb();
  const campaign = await orNotFound(getCampaign(db, user.workspaceId, id));
  const [{ deployment }, templates, knownAttributes, sender, workspace] = await Promise.all([
    campaignResource(db, user.workspaceId, campaign, await requestOrigin()),
    listTemplates(db, user.workspaceId),
    listKnownAttributes(db, user.workspaceId),
    getSender(db, user.workspaceId),
    getWorkspace(db, user.workspaceId),
  ]);
  return (
    <CampaignBuilder
      key={campaign.id}
      initialCampaign={campaign}
      initialDeployment={deployment}
      templates={templates}
      knownAttributes={knownAttributes}
      sender={{ provider: sender.provider, name: workspace?.name ?? "Your business" }}
    />
  );
}
