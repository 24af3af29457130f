import type { Metadata } from "next";
import { connection } from "next/server";
import { SenderSettingsForm } from "@/components/senders/sender-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db";
import { requireUser } from "@/lib/auth";
import { appUrl } from "@/lib/env";
import { SANDBOX_TEST_NUMBERS } from "@/lib/messaging/providers/sandbox";
import { getSender } from "@/lib/senders/service";

export const metadata: Metadata = { title: "WhatsApp" };

export default async function WhatsAppSettingsPage() {
  await connection();
  const user = await requireUser();
  const sender = await getSender(await getDb(), user.workspaceId);
  return (
    <>
      <PageHeader title="WhatsApp" description="The number your campaign messages are sent from." />
      <div className="max-w-3xl">
        <SenderSettingsForm initialSender={sender} webhookUrl={`${appUrl()}/api/webhooks/whatsapp`} undeliverableTestNumber={SANDBOX_TEST_NUMBERS.undeliverable} />
      </div>
    </>
  );
}
