"use client";

import { Input } from "@/components/ui/input";
import type { JourneyStep } from "@/lib/campaigns/journey";
import type { JourneyEnv, StepChange } from "./env";
import { Row } from "./fields";
import { BranchStepEditor } from "./step-editor-branch";
import { SendStepEditor } from "./step-editor-send";
import { UpdateContactStepEditor } from "./step-editor-update";
import { WaitForEventStepEditor, WaitStepEditor } from "./step-editor-wait";

/** The inline form under a node: the step's name, then what its type takes. */
export function StepEditor({ step, env, onChange }: { step: JourneyStep; env: JourneyEnv; onChange: StepChange }) {
  const id = `step-${step.id}`;
  return (
    <div className="grid gap-4 border-t pt-4">
      <Row label="Step name" htmlFor={`${id}-name`} hint={`Shown on the node and in the logs. Its id: ${step.id}.`}>
        <Input id={`${id}-name`} value={step.name ?? ""} maxLength={80} onChange={(event) => onChange({ ...step, name: event.target.value === "" ? null : event.target.value })} />
      </Row>
      {step.type === "send" && <SendStepEditor step={step} env={env} onChange={onChange} />}
      {step.type === "wait" && <WaitStepEditor step={step} env={env} onChange={onChange} />}
      {step.type === "wait_for_event" && <WaitForEventStepEditor step={step} env={env} onChange={onChange} />}
      {step.type === "branch" && <BranchStepEditor step={step} env={env} onChange={onChange} />}
      {step.type === "update_contact" && <UpdateContactStepEditor step={step} env={env} onChange={onChange} />}
    </div>
  );
}
