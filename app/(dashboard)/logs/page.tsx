import { FileText } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Logs" };

export default function LogsPage() {
  return (
    <>
      <PageHeader title="Logs" description="Every message your campaigns send, with its delivery status and any error." />
      <EmptyState
        icon={<FileText aria-hidden />}
        title="No messages yet"
        description="Messages appear here as soon as a deployed campaign is triggered. Deploy a campaign and call its webhook to send the first one."
      />
    </>
  );
}
