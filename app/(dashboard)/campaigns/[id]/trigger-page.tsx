// Server side of a trigger campaign's page: loads what the builder needs (deployment details,
// templates, known attributes, the sender for the preview).
import type { Executor } from "@/db";
import { campaignResource } from "@/lib/campaigns/http";
import { listKnownAttributes, type CampaignView } from "@/lib/campaigns/service";
import { requestOrigin } from "@/lib/http/request-origin";
import { getSender } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";
import { getWorkspace } from "@/lib/workspaces";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";

export async function TriggerPage({ db, workspaceId, campaign }: { db: Executor; workspaceId: string; campaign: CampaignView }) {
  const [{ deployment }, templates, knownAttributes, sender, workspace] = await Promise.all([
    campaignResource(db, workspaceId, campaign, await requestOrigin()),
    listTemplates(db, workspaceId),
    listKnownAttributes(db, workspaceId),
    getSender(db, workspaceId),
    getWorkspace(db, workspaceId),
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
