import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SenderBanner } from "@/components/campaigns/sender-banner";
import { SenderNameForm } from "@/components/senders/sender-name-form";
import { SenderSettingsForm } from "@/components/senders/sender-settings-form";
import { AdminsOnly } from "@/components/settings/admins-only";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { appUrl } from "@/lib/env";
import { orNotFound, pageParams } from "@/lib/http/page-not-found";
import { requestOrigin } from "@/lib/http/request-origin";
import { SANDBOX_TEST_NUMBERS } from "@/lib/channels";
import { bannerFromHealth } from "@/lib/senders/banner";
import { pendingMessageCount, senderHealth } from "@/lib/senders/health";
import { getSender } from "@/lib/senders/service";

export const metadata: Metadata = { title: "WhatsApp sender" };

export default async function WhatsAppSenderPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const user = await requireUser();
  if (user.role === "member") return <AdminsOnly title="WhatsApp" />;
  const { id } = await pageParams(params);
  const db = await getDb();
  const sender = await orNotFound(getSender(db, user.workspaceId, id));
  const [health, pendingMessages] = await Promise.all([senderHealth(db, user.workspaceId, sender.id), pendingMessageCount(db, user.workspaceId, sender.id)]);
  const banner = bannerFromHealth(health, sender);
  return (
    <>
      <PageHeader
        title={sender.name}
        description={sender.isDefault ? "The default sender: campaigns that name no other sender send through it." : "A sender campaigns can choose."}
      />
      <div className="grid max-w-3xl gap-6">
        <p className="text-sm">
          <Link href="/settings/whatsapp" className="text-primary underline underline-offset-4">
            All senders
          </Link>
        </p>
        <SenderBanner banner={banner} fixLink={false} />
        <SenderNameForm senderId={sender.id} name={sender.name} />
        <SenderSettingsForm
          key={sender.id}
          initialSender={sender}
          pendingMessages={pendingMessages}
          webhookUrl={`${appUrl(await requestOrigin())}/api/webhooks/whatsapp`}
          undeliverableTestNumber={SANDBOX_TEST_NUMBERS.undeliverable}
        />
      </div>
    </>
  );
}
