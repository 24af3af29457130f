import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** What a member sees on a settings page only owners and admins can use. */
export function AdminsOnly({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        icon={<Lock aria-hidden />}
        title="Owners and admins only"
        description="As a member you build campaigns, manage contacts and read logs. Ask an owner or an admin of this workspace (Settings → Members) to change this for you."
      />
    </>
  );
}
