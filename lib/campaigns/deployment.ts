// What a deployed campaign shows its integrators: webhook URLs, sending limits, a sample request.
import type { Executor } from "@/db";
import { apiUrl, appUrl } from "@/lib/env";
import { campaignSenderRow, messagingTierLabel } from "@/lib/senders/service";
import { curlExample, samplePayload, type TriggerPayload } from "./sample";
import type { CampaignView } from "./service";

export interface DeploymentDetails {
  webhookUrls: { trigger: string; outbound: string };
  limits: { senderThroughputPerSecond: number; messagingTier: string; triggerRequestsPerMinute: number };
  samplePayload: TriggerPayload;
  curl: string;
}

/** The URLs that trigger a campaign: the app's trigger route and `/outbound/{id}` on the API host. */
export function campaignWebhookUrls(campaignId: string, requestOrigin?: string): DeploymentDetails["webhookUrls"] {
  return {
    trigger: `${appUrl(requestOrigin)}/api/campaigns/${campaignId}/trigger`,
    outbound: `${apiUrl(requestOrigin)}/outbound/${campaignId}`,
  };
}

/** Webhook URLs, sending limits and a ready curl example for a campaign. */
export async function getDeploymentDetails(
  db: Executor,
  workspaceId: string,
  campaign: Pick<CampaignView, "id" | "triggerConfig" | "rateLimitPerMinute" | "senderId">,
  requestOrigin?: string,
): Promise<DeploymentDetails> {
  const sender = await campaignSenderRow(db, workspaceId, campaign.senderId);
  const webhookUrls = campaignWebhookUrls(campaign.id, requestOrigin);
  const body = samplePayload(campaign.triggerConfig);
  return {
    webhookUrls,
    limits: {
      senderThroughputPerSecond: sender.throughputPerSecond,
      messagingTier: messagingTierLabel(sender),
      triggerRequestsPerMinute: campaign.rateLimitPerMinute,
    },
    samplePayload: body,
    curl: curlExample(webhookUrls.trigger, body),
  };
}
