import type { Metadata } from "next";
import { connection } from "next/server";
import { DefaultCountryForm } from "@/components/settings/default-country-form";
import { InboxSettingsForm } from "@/components/settings/inbox-settings-form";
import { WorkspaceNameForm } from "@/components/settings/workspace-name-form";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { notFound } from "next/navigation";
import { isOwnerOrAdmin } from "@/lib/members/roles";
import { getWorkspace, isWorkspaceOwner, REPLY_ATTRIBUTION_HOURS, WORKSPACE_NAME_MAX } from "@/lib/workspaces";

export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspaceSettingsPage() {
  await connection();
  const user = await requireUser();
  const db = await getDb();
  const [workspace, owner] = await Promise.all([getWorkspace(db, user.workspaceId), isWorkspaceOwner(db, user.workspaceId, user.id)]);
  if (!workspace) notFound();
  return (
    <>
      <PageHeader title="Workspace" description="Settings that apply to everyone in this workspace." />
      <div className="grid max-w-3xl gap-6">
        <WorkspaceNameForm initialName={workspace.name} canRename={owner} maxLength={WORKSPACE_NAME_MAX} />
        <DefaultCountryForm initialCountry={workspace.defaultCountry} />
        <InboxSettingsForm
          initial={{ replyAttributionHours: workspace.replyAttributionHours, inboxMembersSeeAll: workspace.inboxMembersSeeAll, sandboxAudienceReplies: workspace.sandboxAudienceReplies }}
          canEdit={isOwnerOrAdmin(user.role)}
          bounds={REPLY_ATTRIBUTION_HOURS}
        />
      </div>
    </>
  );
}
