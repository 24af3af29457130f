import { redirect } from "next/navigation";
import { connection } from "next/server";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db";
import { requireUser, SIGN_IN_PATH } from "@/lib/auth";
import { getWorkspace } from "@/lib/workspaces";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await connection();
  const user = await requireUser();
  const workspace = await getWorkspace(await getDb(), user.workspaceId);
  // A session whose workspace is gone (database reset) is as good as signed out.
  if (!workspace) redirect(SIGN_IN_PATH);
  return (
    <AppShell user={{ name: user.name, email: user.email }} workspaceName={workspace.name}>
      {children}
    </AppShell>
  );
}
