// What both inbox pages load once: the viewer, who can be assigned, and the filters' choices.
import type { InboxContext } from "@/components/inbox/types";
import type { Executor } from "@/db";
import type { SessionUser } from "@/lib/auth";
import { assignableMembers, type Viewer } from "@/lib/conversations/service";
import { listLogsCampaignOptions } from "@/lib/logs/campaign";
import { listSenderRows } from "@/lib/senders/service";

export const viewerOf = (user: SessionUser): Viewer => ({
  workspaceId: user.workspaceId,
  actor: { type: "user", id: user.id, email: user.email, name: user.name },
  role: user.role,
});

export async function loadInboxContext(db: Executor, user: SessionUser): Promise<InboxContext> {
  const [members, senders, campaigns] = await Promise.all([assignableMembers(db, user.workspaceId), listSenderRows(db, user.workspaceId), listLogsCampaignOptions(db, user.workspaceId)]);
  return {
    me: { id: user.id },
    members,
    senders: senders.map((sender) => ({ id: sender.id, label: [sender.name, sender.displayPhoneNumber].filter(Boolean).join(" · ") || "WhatsApp number", sandbox: sender.provider === "sandbox" })),
    campaigns: campaigns.map((campaign) => ({ id: campaign.id, name: campaign.name })),
  };
}
