"use client";

import { ChevronDown, Repeat } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { Funnel, RetargetAudience } from "./types";

const number = (n: number) => n.toLocaleString("en-US");

/** How many contacts each retarget audience holds, from the funnel. */
export function retargetCounts(funnel: Funnel): Record<RetargetAudience, number> {
  return { failed: funnel.failed, not_delivered: funnel.sent - funnel.delivered + funnel.failed, not_read: funnel.sent - funnel.read + funnel.failed };
}

const OPTIONS: { audience: RetargetAudience; label: string; hint: string }[] = [
  { audience: "failed", label: "Failed", hint: "contacts whose message failed" },
  { audience: "not_delivered", label: "Not delivered", hint: "failed, or sent but never delivered" },
  { audience: "not_read", label: "Not read", hint: "everyone who has not read it" },
];

/** "Send again to …": makes a new draft for part of this campaign's audience and opens it. */
export function RetargetMenu({ campaignId, funnel }: { campaignId: string; funnel: Funnel }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const counts = retargetCounts(funnel);

  async function retarget(audience: RetargetAudience) {
    setBusy(true);
    try {
      const result = await requestJson<{ id: string }>(`/api/v1/campaigns/${campaignId}/retarget`, { method: "POST", body: { audience } });
      if (!result.ok) return void toast.error(result.problem.detail);
      toast.success("New draft created");
      router.push(`/campaigns/${result.data.id}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" disabled={busy}>
          <Repeat aria-hidden /> {busy ? "Creating draft…" : "Send again"} <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>Send again to…</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {OPTIONS.map((option) => (
          <DropdownMenuItem key={option.audience} disabled={counts[option.audience] === 0} onSelect={() => retarget(option.audience)}>
            <span className="grid gap-0.5">
              <span className="font-medium">
                {option.label} <span className="text-muted-foreground tabular-nums">({number(counts[option.audience])})</span>
              </span>
              <span className="text-xs text-muted-foreground">{option.hint}</span>
            </span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
