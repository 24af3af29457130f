// Server side of a trigger campaign's page: loads what the builder needs (deployment details,
// templates, known attributes, the senders to choose from and the chosen one for the preview).
import type { Executor } from "@/db";
import { campaignResource } from "@/lib/campaigns/http";
import { listKnownAttributes, type CampaignView } from "@/lib/campaigns/service";
import { requestOrigin } from "@/lib/http/request-origin";
import { campaignSenderOptions } from "@/lib/senders/options";
import { getSender } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";
import { getWorkspace } from "@/lib/workspaces";
import { CampaignBuilder } from "@/components/campaigns/campaign-builder";

export async function TriggerPage({ db, workspaceId, campaign }: { db: Executor; workspaceId: string; campaign: CampaignView }) {
  const senderId = campaign.senderId ?? undefined;
  const [{ deployment }, templates, knownAttributes, sender, workspace, senders] = await Promise.all([
    campaignResource(db, workspaceId, campaign, await requestOrigin()),
    listTemplates(db, workspaceId, { senderId }),
    listKnownAttributes(db, workspaceId),
    getSender(db, workspaceId, senderId),
    getWorkspace(db, workspaceId),
    campaignSenderOptions(db, workspaceId),
  ]);
  return (
    <CampaignBuilder
      key={campaign.id}
      initialCampaign={campaign}
      initialDeployment={deployment}
      templates={templates}
      knownAttributes={knownAttributes}
      sender={{ provider: sender.provider, name: workspace?.name ?? "Your business" }}
      senders={senders}
    />
  );
}
