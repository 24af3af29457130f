import type { Metadata } from "next";
import { connection } from "next/server";
import { AlertSettingsForm } from "@/components/alerts/alert-settings-form";
import { NoticeHistory } from "@/components/alerts/notice-history";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { listRecentNotices } from "@/lib/alerts/notices";
import { getAlertSettings } from "@/lib/alerts/settings";
import { requireUser } from "@/lib/auth";
import { AdminsOnly } from "@/components/settings/admins-only";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="Alerts" />;
  const db = await getDb();
  const [settings, notices] = await Promise.all([getAlertSettings(db, user.workspaceId), listRecentNotices(db, user.workspaceId)]);
  return (
    <>
      <PageHeader title="Alerts" description="Hear about failing campaigns and a failing sender before your customers do." />
      <div className="grid gap-6">
        <AlertSettingsForm initial={settings} />
        <NoticeHistory notices={notices} />
      </div>
    </>
  );
}
