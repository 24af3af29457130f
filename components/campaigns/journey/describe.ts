// Steps in words, for their nodes and the path preview.
import type { AwaitedEvent, ExternalEvent, JourneyCondition, JourneyStep } from "@/lib/campaigns/journey";
import { STEP_TYPE_LABELS } from "@/lib/campaigns/journey-edit";

export const DURATION_UNITS = [
  { unit: "seconds", seconds: 1 },
  { unit: "minutes", seconds: 60 },
  { unit: "hours", seconds: 3600 },
  { unit: "days", seconds: 86_400 },
] as const;

/** 3600 → "1 hour", 90 → "90 seconds". */
export function formatDuration(seconds: number): string {
  const unit = [...DURATION_UNITS].reverse().find((u) => seconds % u.seconds === 0) ?? DURATION_UNITS[0];
  const count = seconds / unit.seconds;
  return `${count} ${count === 1 ? unit.unit.slice(0, -1) : unit.unit}`;
}

export function describeExternal(event: ExternalEvent, campaignName?: (id: string) => string | undefined): string {
  return event.kind === "event" ? `the event “${event.name}”` : `a trigger of ${campaignName?.(event.campaignId) ?? event.campaignId}`;
}

export function describeAwaited(event: AwaitedEvent): string {
  switch (event.kind) {
    case "delivered":
    case "read":
      return `the last message is ${event.kind}`;
    case "replied":
      return "the contact replies";
    case "button":
      return event.payload ? `the contact taps “${event.payload}”` : "the contact taps a button";
    default:
      return describeExternal(event);
  }
}

const OPERATOR_WORDS: Record<JourneyCondition["operator"], string> = {
  equals: "is",
  not_equals: "is not",
  contains: "contains",
  exists: "is set",
  not_exists: "is not set",
  greater_than: "is more than",
  less_than: "is less than",
};

export function describeCondition(condition: JourneyCondition): string {
  const subject = {
    attribute: () => `attribute ${"attribute" in condition.subject ? condition.subject.attribute : ""}`,
    trigger: () => `request field ${"field" in condition.subject ? condition.subject.field : ""}`,
    last_message_status: () => "last message status",
    reply_text: () => "reply text",
    button_payload: () => "button tapped",
  }[condition.subject.kind]();
  const valued = condition.operator !== "exists" && condition.operator !== "not_exists";
  return `${subject} ${OPERATOR_WORDS[condition.operator]}${valued ? ` “${String(condition.value ?? "")}”` : ""}`;
}

/** A node's one-line summary. */
export function describeStep(step: JourneyStep, templateName: (id: string) => string | undefined): string {
  switch (step.type) {
    case "send":
      return step.templateId ? `Sends ${templateName(step.templateId) ?? "a template"}` : "No template chosen yet";
    case "wait":
      if (step.wait.kind === "duration") return `Waits ${formatDuration(step.wait.seconds)}`;
      if (step.wait.kind === "time_of_day") return `Waits until ${step.wait.time} (${step.wait.timeZone ?? "the contact's time zone"})`;
      return `Waits until ${step.wait.attribute}${step.wait.offsetSeconds ? ` ${step.wait.offsetSeconds > 0 ? "+" : "−"} ${formatDuration(Math.abs(step.wait.offsetSeconds))}` : ""}`;
    case "wait_for_event":
      return `Waits up to ${formatDuration(step.timeoutSeconds)} until ${describeAwaited(step.event)}`;
    case "branch":
      return `${step.paths.length} ${step.paths.length === 1 ? "path" : "paths"} and otherwise`;
    case "update_contact": {
      const parts = [...step.set.map((s) => `sets ${s.attribute || "…"}`), ...step.addToListIds.map(() => "adds to a list"), ...step.removeFromListIds.map(() => "removes from a list")];
      return parts.length > 0 ? parts.join(", ") : "Changes nothing yet";
    }
    case "end":
      return "The run ends here";
  }
}

export function stepTitle(step: JourneyStep): string {
  return step.name?.trim() || STEP_TYPE_LABELS[step.type];
}
