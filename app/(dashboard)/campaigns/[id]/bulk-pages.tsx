// Server side of the bulk campaign pages: loads what the builder and the campaign view need.
import type { Executor } from "@/db";
import { listLists } from "@/lib/audiences/lists";
import { listSegments } from "@/lib/audiences/segments";
import { getBulkProgress } from "@/lib/bulk/progress";
import { listKnownAttributes } from "@/lib/campaigns/service";
import { campaignSenderOptions } from "@/lib/senders/options";
import { getSender } from "@/lib/senders/service";
import { listTemplates } from "@/lib/templates/service";
import { getWorkspace } from "@/lib/workspaces";
import { BulkBuilder } from "@/components/campaigns/bulk/bulk-builder";
import { BulkCampaignView } from "@/components/campaigns/bulk/bulk-campaign-view";
import type { BulkCampaign } from "@/components/campaigns/bulk/bulk-draft";

export async function BulkBuilderPage({ db, workspaceId, campaign }: { db: Executor; workspaceId: string; campaign: BulkCampaign }) {
  const senderId = campaign.senderId ?? undefined;
  const [templates, knownAttributes, lists, segments, sender, workspace, senders] = await Promise.all([
    listTemplates(db, workspaceId, { senderId }),
    listKnownAttributes(db, workspaceId),
    listLists(db, workspaceId, { limit: 100 }),
    listSegments(db, workspaceId, { limit: 100 }),
    getSender(db, workspaceId, senderId),
    getWorkspace(db, workspaceId),
    campaignSenderOptions(db, workspaceId),
  ]);
  return (
    <BulkBuilder
      senders={senders}
      key={campaign.id}
      initialCampaign={campaign}
      templates={templates}
      knownAttributes={knownAttributes}
      lists={lists.data.map(({ id, name, contactCount }) => ({ id, name, contactCount }))}
      segments={segments.data.map(({ id, name, contactCount }) => ({ id, name, contactCount }))}
      sender={{ provider: sender.provider, name: workspace?.name ?? "Your business", throughputPerSecond: sender.throughputPerSecond }}
    />
  );
}

/** "2 lists, 1 segment" — what the audience is made of, for the campaign's subtitle. */
function audienceSummary(campaign: BulkCampaign): string {
  const audience = campaign.bulk?.audience;
  const parts: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (audience?.listIds.length) parts.push(plural(audience.listIds.length, "list"));
  if (audience?.segmentIds.length) parts.push(plural(audience.segmentIds.length, "segment"));
  if (audience?.contactIds?.length) parts.push(plural(audience.contactIds.length, "chosen contact"));
  return parts.length > 0 ? parts.join(", ") : "no audience";
}

export async function BulkCampaignPage({ db, workspaceId, campaign }: { db: Executor; workspaceId: string; campaign: BulkCampaign }) {
  const progress = await getBulkProgress(db, workspaceId, campaign.id);
  return <BulkCampaignView key={campaign.id} campaign={campaign} initialProgress={progress} audienceSummary={audienceSummary(campaign)} />;
}

/** A bulk campaign's page: the builder while it is a draft, else its progress and actions. */
export function BulkPage(props: { db: Executor; workspaceId: string; campaign: BulkCampaign }) {
  return props.campaign.status === "draft" ? <BulkBuilderPage {...props} /> : <BulkCampaignPage {...props} />;
}
