"use client";

import { ChevronDown, CornerDownRight, Flag } from "lucide-react";
import { useState } from "react";
import type { Journey, JourneyStep, JourneyStepType } from "@/lib/campaigns/journey";
import { edgeAfter, layoutJourney, type EdgeRef, type FlowBranch, type FlowItem } from "@/lib/campaigns/journey-edit";
import type { NodeIssue } from "@/lib/campaigns/journey-issues";
import { cn } from "@/lib/utils";
import { AddStepMenu } from "./add-step-menu";
import { stepTitle } from "./describe";
import type { JourneyEnv } from "./env";
import { StepNode } from "./step-node";
import type { StepStats } from "./use-journey-stats";

export interface FlowActions {
  add: (edge: EdgeRef, type: JourneyStepType) => void;
  change: (id: string, step: JourneyStep) => void;
  remove: (id: string) => void;
}

interface FlowProps {
  journey: Journey;
  env: JourneyEnv;
  issues: Map<string, NodeIssue[]>;
  stats: Map<string, StepStats>;
  placeholders: ReadonlySet<string>;
  actions: FlowActions;
}

function Connector() {
  return <div className="mx-auto h-4 w-px bg-border" aria-hidden />;
}

/** One way through the flow: its steps in order, a "+" on every edge. */
function BranchList({ branch, props, editing, setEditing, after }: { branch: FlowBranch; props: FlowProps; editing: string | null; setEditing: (id: string | null) => void; after: string }) {
  const { journey, env, actions } = props;
  const title = (id: string) => {
    const step = journey.steps.find((s) => s.id === id);
    return step ? stepTitle(step) : id;
  };
  return (
    <ol className="grid min-w-0 gap-0">
      {branch.items.map((item, index) => {
        const previous = index === 0 ? null : (branch.items[index - 1] as Extract<FlowItem, { kind: "step" }>);
        const edge = previous ? edgeAfter(previous.step) : branch.edge;
        const where = previous ? `after ${stepTitle(previous.step)}` : after;
        return (
          <li key={item.kind === "step" ? item.step.id : `${item.kind}-${index}`} className="grid min-w-0">
            {env.editable && edge && (
              <>
                <Connector />
                <AddStepMenu where={where} canEnd={item.kind === "end"} onAdd={(type) => actions.add(edge, type)} />
              </>
            )}
            <Connector />
            {item.kind === "step" && (
              <>
                <StepNode
                  step={item.step}
                  env={env}
                  issues={props.issues.get(item.step.id) ?? []}
                  stats={props.stats.get(item.step.id)}
                  placeholder={props.placeholders.has(item.step.id)}
                  editing={editing === item.step.id}
                  onEdit={(open) => setEditing(open ? item.step.id : null)}
                  onChange={(next) => actions.change(item.step.id, next)}
                  onDelete={() => actions.remove(item.step.id)}
                />
                {item.branches.length > 0 && <Ways step={item.step} branches={item.branches} props={props} editing={editing} setEditing={setEditing} />}
              </>
            )}
            {item.kind === "continues" && (
              <a href={`#step-${item.stepId}`} className="mx-auto inline-flex items-center gap-1.5 rounded-full border border-dashed px-3 py-1 text-xs font-medium text-primary underline-offset-2 hover:underline">
                <CornerDownRight className="size-3.5" aria-hidden /> Continues at “{title(item.stepId)}”
              </a>
            )}
            {item.kind === "end" && (
              <p className="mx-auto inline-flex items-center gap-1.5 rounded-full bg-muted px-3 py-1 text-xs text-muted-foreground">
                <Flag className="size-3.5" aria-hidden /> End of the journey
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A step's ways (a branch's paths, a wait's "when it happens" and "on timeout"), side by side; each collapsible. */
function Ways({ step, branches, props, editing, setEditing }: { step: JourneyStep; branches: FlowBranch[]; props: FlowProps; editing: string | null; setEditing: (id: string | null) => void }) {
  const [closed, setClosed] = useState<ReadonlySet<number>>(new Set());
  const toggle = (index: number) =>
    setClosed((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  return (
    // Side by side while the column has room for them (a container query: nested ways stack sooner).
    <div className="@container pb-1">
      <ul className="mt-2 grid gap-3 @md:auto-cols-fr @md:grid-flow-col" aria-label={`Ways out of ${stepTitle(step)}`}>
        {branches.map((branch, index) => {
          const open = !closed.has(index);
          const id = `ways-${step.id}-${index}`;
          return (
            <li key={index} className="min-w-0 rounded-xl border border-dashed bg-muted/30 p-2">
              <h4 className="text-xs font-semibold">
                <button type="button" className="flex w-full items-center justify-between gap-2 rounded px-1 py-1 text-left" aria-expanded={open} aria-controls={id} onClick={() => toggle(index)}>
                  <span>{branch.label}</span>
                  <ChevronDown className={cn("size-4 transition-transform", !open && "-rotate-90")} aria-hidden />
                </button>
              </h4>
              <div id={id} hidden={!open}>
                <BranchList branch={branch} props={props} editing={editing} setEditing={setEditing} after={`at the start of “${branch.label}” under ${stepTitle(step)}`} />
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The steps after the trigger as a vertical flow (a tree: a step reached twice is drawn once, and linked to elsewhere). */
export function JourneyFlow(props: FlowProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const { root, unreachable } = layoutJourney(props.journey);
  return (
    <div className="grid gap-2">
      <BranchList branch={root} props={props} editing={editing} setEditing={setEditing} after="right after the trigger" />
      {unreachable.length > 0 && (
        <section aria-labelledby="unreachable-title" className="mt-4 grid gap-2 rounded-xl border border-destructive/40 p-3">
          <h3 id="unreachable-title" className="text-sm font-semibold text-destructive">
            Not connected
          </h3>
          <p className="text-xs text-muted-foreground">No path reaches these steps: delete them, or they block saving.</p>
          <ul className="grid gap-2">
            {unreachable.map((step) => (
              <li key={step.id}>
                <StepNode
                  step={step}
                  env={props.env}
                  issues={props.issues.get(step.id) ?? []}
                  stats={props.stats.get(step.id)}
                  placeholder={false}
                  editing={editing === step.id}
                  onEdit={(open) => setEditing(open ? step.id : null)}
                  onChange={(next) => props.actions.change(step.id, next)}
                  onDelete={() => props.actions.remove(step.id)}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
