import type { Metadata } from "next";
import { connection } from "next/server";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { AddSenderDialog } from "@/components/senders/add-sender-dialog";
import { SendersTable } from "@/components/senders/senders-table";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { AdminsOnly } from "@/components/settings/admins-only";
import { bannerFromHealth, sendersWithHealth } from "@/lib/senders/banner";
import { toSenderResource } from "@/lib/senders/collection";

export const metadata: Metadata = { title: "WhatsApp" };

export default async function WhatsAppSettingsPage() {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="WhatsApp" />;
  const db = await getDb();
  const senders = await sendersWithHealth(db, user.workspaceId);
  const failing = senders.filter((s) => s.health.failing);
  const banner = failing[0] ? bannerFromHealth(failing[0].health, failing[0].sender, failing.length - 1) : null;
  return (
    <>
      <PageHeader
        title="WhatsApp"
        description="The numbers your campaign messages are sent from. Each campaign picks one; the default is preselected."
        actions={<AddSenderDialog />}
      />
      <div className="grid max-w-5xl gap-6">
        <SenderBanner banner={banner} />
        <SendersTable senders={senders.map(({ sender, health }) => ({ ...toSenderResource(sender), failing: health.failing }))} />
      </div>
    </>
  );
}
