import { Megaphone } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Campaigns" };

export default function CampaignsPage() {
  return (
    <>
      <PageHeader title="Campaigns" description="Trigger campaigns send one WhatsApp template message each time your systems call their webhook." />
      <EmptyState
        icon={<Megaphone aria-hidden />}
        title="No campaigns yet"
        description="A campaign maps the fields your shop or CRM sends to an approved WhatsApp template. Create an API key first, then build your first trigger campaign here."
      />
    </>
  );
}
