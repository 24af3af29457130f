"use client";

import { AlertCircle, Pencil, Sparkles, Trash2 } from "lucide-react";
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
import type { JourneyStep } from "@/lib/campaigns/journey";
import { STEP_TYPE_LABELS } from "@/lib/campaigns/journey-edit";
import type { NodeIssue } from "@/lib/campaigns/journey-issues";
import { cn } from "@/lib/utils";
import { STEP_ICONS } from "./add-step-menu";
import { describeStep, stepTitle } from "./describe";
import type { JourneyEnv, StepChange } from "./env";
import { StepEditor } from "./step-editor";
import type { StepStats } from "./use-journey-stats";

const COUNTS = [
  ["entered", "entered"],
  ["waiting", "waiting"],
  ["sent", "sent"],
  ["exited", "exited"],
] as const;

/** One step of the flow: its heading, summary, live counts, problems, and its inline editor when open. */
export function StepNode({
  step,
  env,
  issues,
  stats,
  placeholder,
  editing,
  onEdit,
  onChange,
  onDelete,
}: {
  step: JourneyStep;
  env: JourneyEnv;
  issues: NodeIssue[];
  stats: StepStats | undefined;
  /** A preset's stand-in template the user should replace. */
  placeholder: boolean;
  editing: boolean;
  onEdit: (open: boolean) => void;
  onChange: StepChange;
  onDelete: () => void;
}) {
  const title = stepTitle(step);
  const headingId = `step-${step.id}-title`;
  const templateName = (id: string) => env.templates.find((t) => t.id === id)?.name;
  return (
    <article
      id={`step-${step.id}`}
      aria-labelledby={headingId}
      className={cn("@container grid scroll-mt-6 gap-3 rounded-xl border bg-card p-4 shadow-xs", issues.length > 0 && "border-destructive/50", placeholder && "ring-2 ring-amber-300")}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-3">
          <div className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-4" aria-hidden>
            {STEP_ICONS[step.type]}
          </div>
          <div className="min-w-0">
            <h3 id={headingId} className="text-sm font-semibold">
              {title}
            </h3>
            <p className="text-xs text-muted-foreground">
              {step.name ? `${STEP_TYPE_LABELS[step.type]} · ` : ""}
              {describeStep(step, templateName)}
            </p>
          </div>
        </div>
        {env.editable && (
          <div className="flex gap-1">
            <Button type="button" variant="ghost" size="sm" aria-expanded={editing} aria-controls={`step-${step.id}-editor`} onClick={() => onEdit(!editing)}>
              <Pencil aria-hidden /> {editing ? "Close" : "Edit"}
              <span className="sr-only"> {title}</span>
            </Button>
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button type="button" variant="ghost" size="sm" aria-label={`Delete ${title}`}>
                  <Trash2 aria-hidden />
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Delete “{title}”?</AlertDialogTitle>
                  <AlertDialogDescription>
                    The step before it will go on to the step after it{step.type === "branch" || step.type === "wait_for_event" ? " (its first way); steps only reachable through its other ways are deleted too" : ""}.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction onClick={onDelete}>Delete step</AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </div>
        )}
      </div>
      {placeholder && (
        <p className="flex items-center gap-1.5 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900">
          <Sparkles className="size-3.5 shrink-0" aria-hidden /> A placeholder template from the preset: choose the one you want to send.
        </p>
      )}
      {stats && (
        <dl role="group" className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={`Live counts for ${title}`}>
          {COUNTS.filter(([key]) => key !== "sent" || step.type === "send").map(([key, label]) => (
            <div key={key} className="flex gap-1">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium tabular-nums">{stats[key].toLocaleString("en-US")}</dd>
            </div>
          ))}
        </dl>
      )}
      {issues.length > 0 && (
        <ul className="grid gap-1" aria-label={`Problems on ${title}`}>
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`} className="flex items-start gap-1.5 text-xs font-medium text-destructive">
              <AlertCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden /> {issue.message}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <div id={`step-${step.id}-editor`}>
          <StepEditor step={step} env={env} onChange={onChange} />
        </div>
      )}
    </article>
  );
}
