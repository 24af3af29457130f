"use client";

import { ArchiveRestore, FileText, MoreHorizontal, PencilLine } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

/** A campaign row's actions in the campaigns list: open it, its logs, and Unarchive for archived ones. */
export function CampaignRowMenu({ campaign }: { campaign: { id: string; name: string; status: string } }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);

  async function unarchive() {
    setBusy(true);
    try {
      const result = await requestJson(`/api/v1/campaigns/${campaign.id}/unarchive`, { method: "POST", body: {} });
      if (!result.ok) {
        toast.error(result.problem.detail);
        return;
      }
      toast.success(`“${campaign.name}” is a draft again — open it to edit and deploy.`);
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${campaign.name}`} disabled={busy}>
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem asChild>
          <Link href={`/campaigns/${campaign.id}`}>
            <PencilLine aria-hidden /> Open
          </Link>
        </DropdownMenuItem>
        {campaign.status !== "draft" && (
          <DropdownMenuItem asChild>
            <Link href={`/campaigns/${campaign.id}/logs`}>
              <FileText aria-hidden /> View logs
            </Link>
          </DropdownMenuItem>
        )}
        {campaign.status === "archived" && (
          <DropdownMenuItem onSelect={() => void unarchive()}>
            <ArchiveRestore aria-hidden /> Unarchive
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
