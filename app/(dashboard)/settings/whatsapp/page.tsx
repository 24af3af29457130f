import type { Metadata } from "next";
import { connection } from "next/server";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { SenderSettingsForm } from "@/components/senders/sender-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { appUrl } from "@/lib/env";
import { SANDBOX_TEST_NUMBERS } from "@/lib/messaging/providers/sandbox";
import { bannerFromHealth } from "@/lib/senders/banner";
import { getSender } from "@/lib/senders/service";
import { senderHealth } from "@/lib/senders/health";
import { AdminsOnly } from "@/components/settings/admins-only";

export const metadata: Metadata = { title: "WhatsApp" };

export default async function WhatsAppSettingsPage() {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="WhatsApp" />;
  const db = await getDb();
  const [sender, health] = await Promise.all([getSender(db, user.workspaceId), senderHealth(db, user.workspaceId)]);
  const banner = bannerFromHealth(health, sender);
  return (
    <>
      <PageHeader title="WhatsApp" description="The number your campaign messages are sent from." />
      <div className="grid max-w-3xl gap-6">
        <SenderBanner banner={banner} fixLink={false} />
        <SenderSettingsForm
          initialSender={sender}
          pendingMessages={health.pendingMessages}
          webhookUrl={`${appUrl()}/api/webhooks/whatsapp`}
          undeliverableTestNumber={SANDBOX_TEST_NUMBERS.undeliverable}
        />
      </div>
    </>
  );
}
