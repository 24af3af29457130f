"use client";

import { Ban, Pause, Pencil, Play } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

type Action = "pause" | "resume" | "cancel";

const CONFIRM: Record<"pause" | "cancel", { title: string; description: string; action: string }> = {
  pause: {
    title: "Pause sending?",
    description: "No new messages go out from within a second. Messages already sent keep their delivery updates. Resume any time to send the rest.",
    action: "Pause campaign",
  },
  cancel: {
    title: "Cancel this campaign?",
    description:
      "Every message not sent yet is skipped for good (marked as cancelled in the logs) and the campaign cannot be resumed. Messages already sent are not recalled.",
    action: "Cancel campaign",
  },
};

/** Pause, Resume, Cancel and Edit, as the campaign's status allows. */
export function CampaignActions({ campaignId, status, onChanged }: { campaignId: string; status: string; onChanged: () => void }) {
  const [busy, setBusy] = useState<Action | null>(null);

  async function run(action: Action) {
    setBusy(action);
    try {
      const result = await requestJson(`/api/v1/campaigns/${campaignId}/${action}`, { method: "POST", body: {} });
      if (!result.ok) return void toast.error(result.problem.detail);
      toast.success(action === "pause" ? "Campaign paused" : action === "resume" ? "Sending resumed" : "Campaign cancelled");
      onChanged();
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="flex flex-wrap gap-2">
      {(status === "draft" || status === "scheduled") && (
        <Button variant="outline" asChild>
          <Link href={`/campaigns/${campaignId}/edit`}>
            <Pencil aria-hidden /> Edit
          </Link>
        </Button>
      )}
      {status === "sending" && <Confirm kind="pause" icon={<Pause aria-hidden />} label="Pause" busy={busy} onConfirm={() => run("pause")} />}
      {status === "paused" && (
        <Button onClick={() => run("resume")} disabled={busy !== null}>
          <Play aria-hidden /> {busy === "resume" ? "Resuming…" : "Resume"}
        </Button>
      )}
      {(status === "scheduled" || status === "sending" || status === "paused") && (
        <Confirm kind="cancel" icon={<Ban aria-hidden />} label="Cancel" busy={busy} onConfirm={() => run("cancel")} destructive />
      )}
    </div>
  );
}

function Confirm({
  kind,
  icon,
  label,
  busy,
  onConfirm,
  destructive,
}: {
  kind: "pause" | "cancel";
  icon: React.ReactNode;
  label: string;
  busy: Action | null;
  onConfirm: () => void;
  destructive?: boolean;
}) {
  const text = CONFIRM[kind];
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant={destructive ? "ghost" : "outline"} className={destructive ? "text-destructive hover:text-destructive" : undefined} disabled={busy !== null}>
          {icon} {busy === kind ? `${label}…` : label}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{text.title}</AlertDialogTitle>
          <AlertDialogDescription>{text.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{kind === "cancel" ? "Keep sending" : "Keep going"}</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm} className={destructive ? "bg-destructive text-destructive-foreground hover:bg-destructive/90" : undefined}>
            {text.action}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
