import { MessageCircle } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "WhatsApp" };

export default function WhatsAppSettingsPage() {
  return (
    <>
      <PageHeader title="WhatsApp" description="The number your messages are sent from." />
      <EmptyState
        icon={<MessageCircle aria-hidden />}
        title="Sandbox sender"
        description="Your workspace sends through the built-in sandbox: messages are simulated and never reach a phone, so you can build and test campaigns safely."
      />
    </>
  );
}
