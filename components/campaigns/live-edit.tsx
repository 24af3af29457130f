// Editing a live campaign: the draft revision's banner (what differs, Publish / Discard), and the
// confirmations of pausing and discarding.
import { GitCompareArrows, Pause, Radio, Undo2, Upload } from "lucide-react";
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
import { describeRevisionChanges, viewLiveConfig } from "@/lib/campaigns/revision";
import type { CampaignView } from "@/lib/campaigns/service";
import type { TemplateView } from "@/lib/templates/service";
import { Banner } from "./builder-parts";

type Busy = string | null;

/** Above the builder of an active campaign: how editing works, and the pending revision with what differs. */
export function RevisionBanner({
  campaign,
  templates,
  dirty,
  busy,
  onPublish,
  onDiscard,
}: {
  campaign: CampaignView;
  templates: Pick<TemplateView, "id" | "name" | "language">[];
  dirty: boolean;
  busy: Busy;
  onPublish: () => void;
  onDiscard: () => void;
}) {
  const revision = campaign.draftRevision ?? null;
  if (!revision && !dirty) {
    return (
      <Banner tone="success" icon={<Radio aria-hidden />}>
        <strong className="font-medium">This campaign is live.</strong> Edit it below: what you save becomes a draft, and the webhook keeps sending the
        live version until you publish the changes. No need to pause.
      </Banner>
    );
  }
  const templateName = (id: string | null) => {
    const template = templates.find((t) => t.id === id);
    return template ? `${template.name} (${template.language})` : id ? "a removed template" : "none";
  };
  const changes = revision ? describeRevisionChanges(viewLiveConfig(campaign), revision, templateName) : [];
  const live = campaign.status === "active";
  return (
    <section aria-labelledby="revision-title" className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-2.5">
          <GitCompareArrows className="mt-0.5 size-4 shrink-0" aria-hidden />
          <div className="min-w-0">
            <h2 id="revision-title" className="font-medium">
              Editing a draft of a {live ? "live" : "paused"} campaign
            </h2>
            <p className="mt-0.5">
              {live ? "The webhook keeps sending the live version" : "Resuming sends the live version"} until you publish.
              {dirty && " You have unsaved changes: publishing saves them first."}
            </p>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {revision && <DiscardButton disabled={busy !== null} busy={busy === "discard"} onConfirm={onDiscard} />}
          <Button onClick={onPublish} disabled={busy !== null}>
            <Upload aria-hidden /> {busy === "publish" ? "Publishing…" : "Publish changes"}
          </Button>
        </div>
      </div>
      {changes.length > 0 && (
        <div className="min-w-0">
          <h3 className="text-xs font-medium tracking-wide text-amber-900 uppercase">What differs from the live version</h3>
          <ul aria-label="Changes from the live version" className="mt-1.5 grid gap-1">
            {changes.map((change) => (
              <li key={change.member} className="min-w-0 break-words">
                <span className="font-medium">{change.label}</span>
                {change.summary && <>: {change.summary}</>}
                {change.details.length > 0 && (
                  <ul className="mt-0.5 ml-4 list-disc">
                    {change.details.map((line) => (
                      <li key={line} className="text-xs break-words">
                        {line}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function DiscardButton({ disabled, busy, onConfirm }: { disabled: boolean; busy: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={disabled} className="bg-background">
          <Undo2 aria-hidden /> {busy ? "Discarding…" : "Discard changes"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Discard the draft changes?</AlertDialogTitle>
          <AlertDialogDescription>The changes you saved since the last publish are dropped. The live version stays exactly as it is.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep editing</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Discard changes</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Pausing refuses every webhook call until resumed, so it asks first and says so. */
export function PauseButton({ disabled, busy, onConfirm }: { disabled: boolean; busy: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={disabled}>
          <Pause aria-hidden /> {busy ? "Pausing…" : "Pause"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Pause this campaign?</AlertDialogTitle>
          <AlertDialogDescription>
            While it is paused, every call to its webhook is rejected and no message is sent, so your shop or CRM sees those calls fail (order
            confirmations included) until you resume. To change the message, you do not need to pause: edit the campaign and publish the changes.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep it live</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Pause campaign</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The lifecycle actions the builder runs (`POST /api/v1/campaigns/{id}/<action>`). */
export type Action = "deploy" | "pause" | "resume" | "archive" | "unarchive" | "publish" | "discard";

/** What the builder says once an action went through (never a status code). */
export const ACTION_DONE: Record<Exclude<Action, "deploy">, string> = {
  pause: "Campaign paused — calls to its webhook are rejected and nothing is sent until you resume.",
  resume: "Campaign resumed — the webhook accepts calls again.",
  archive: "Campaign archived",
  unarchive: "Campaign unarchived — it is a draft again; deploy it when it is ready.",
  publish: "Changes published — the webhook now sends the new version.",
  discard: "Draft changes discarded — the live version is unchanged.",
};
