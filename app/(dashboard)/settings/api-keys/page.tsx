import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "API Keys" };

export default function ApiKeysPage() {
  return (
    <>
      <PageHeader title="API Keys" description="Keys let your shop, CRM or Zapier trigger campaigns and use the REST API." />
      <EmptyState
        icon={<KeyRound aria-hidden />}
        title="No API keys yet"
        description="Create one key per integration so you can revoke it on its own. The key is shown once, when you create it."
      />
    </>
  );
}
