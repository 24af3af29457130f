"use client";

import { Clock, GitBranch, MessageSquareText, Plus, Square, TimerReset, UserPen } from "lucide-react";
import type * as React from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { JourneyStepType } from "@/lib/campaigns/journey";
import { STEP_TYPE_LABELS } from "@/lib/campaigns/journey-edit";

export const STEP_ICONS: Record<JourneyStepType, React.ReactNode> = {
  send: <MessageSquareText aria-hidden />,
  wait: <Clock aria-hidden />,
  wait_for_event: <TimerReset aria-hidden />,
  branch: <GitBranch aria-hidden />,
  update_contact: <UserPen aria-hidden />,
  end: <Square aria-hidden />,
};

const ORDER: JourneyStepType[] = ["send", "wait", "wait_for_event", "branch", "update_contact", "end"];

/** The "+" between nodes: adds a step of the chosen type on that edge. `where` names the edge for screen readers. */
export function AddStepMenu({ where, onAdd, canEnd, disabled }: { where: string; onAdd: (type: JourneyStepType) => void; canEnd: boolean; disabled?: boolean }) {
  return (
    <div className="flex justify-center py-1">
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline" size="sm" className="h-7 rounded-full px-2.5 text-xs" aria-label={`Add a step ${where}`} disabled={disabled}>
            <Plus aria-hidden /> Add step
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="center">
          {ORDER.map((type) => (
            <DropdownMenuItem key={type} disabled={type === "end" && !canEnd} onSelect={() => onAdd(type)}>
              {STEP_ICONS[type]} {STEP_TYPE_LABELS[type]}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
