import { redirect } from "next/navigation";
import { connection } from "next/server";
import { NoticesBanner } from "@/components/alerts/notices-banner";
import { VerifyEmailBanner } from "@/components/auth/verify-email-banner";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db";
import { listActiveNotices } from "@/lib/alerts/notices";
import { requireUser, SIGN_IN_PATH } from "@/lib/auth";
import { isEmailVerified } from "@/lib/auth/email-verification";
import { listUserWorkspaces } from "@/lib/members/service";
import { getWorkspace } from "@/lib/workspaces";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await connection();
  const user = await requireUser();
  const db = await getDb();
  const workspace = await getWorkspace(db, user.workspaceId);
  // A session whose workspace is gone (database reset) is as good as signed out.
  if (!workspace) redirect(SIGN_IN_PATH);
  // Alerts are for the workspace's owners.
  const [notices, workspaces, emailVerified] = await Promise.all([
    user.role === "owner" ? listActiveNotices(db, user.workspaceId) : Promise.resolve([]),
    listUserWorkspaces(db, user.id),
    isEmailVerified(db, user.id),
  ]);
  return (
    <AppShell user={{ name: user.name, email: user.email, role: user.role, workspaceId: user.workspaceId }} workspaceName={workspace.name} workspaces={workspaces}>
      {!emailVerified && <VerifyEmailBanner email={user.email} />}
      <NoticesBanner key={notices.map((n) => n.id).join()} initialNotices={notices} enabled={user.role === "owner"} />
      {children}
    </AppShell>
  );
}
