// Edits of the journey document the builder makes: a new step under an edge, a step removed with
// its parent reconnected, and the tree the vertical flow draws (a step reached twice drawn once).
import { nextStepIds, type Journey, type JourneyStep, type JourneyStepType } from "./journey";

/** One outgoing edge of a step: where a new step can be added, and what the flow labels. */
export type Slot = { kind: "next" } | { kind: "timeout" } | { kind: "path"; index: number } | { kind: "else" };
/** An edge of the flow: the trigger's (to the first step) or a step's. */
export interface EdgeRef {
  stepId: string | null;
  slot: Slot;
}

export const STEP_TYPE_LABELS: Record<JourneyStepType, string> = {
  send: "Send message",
  wait: "Wait",
  wait_for_event: "Wait for event",
  branch: "Branch",
  update_contact: "Update contact",
  end: "End",
};

/** The edges a step leaves by, in the order the flow shows them, with their labels. */
export function slotsOf(step: JourneyStep): { slot: Slot; label: string | null; target: string | null }[] {
  switch (step.type) {
    case "end":
      return [];
    case "branch":
      return [
        ...step.paths.map((path, index) => ({ slot: { kind: "path", index } as Slot, label: path.name, target: path.next })),
        { slot: { kind: "else" }, label: "Otherwise", target: step.elseNext },
      ];
    case "wait_for_event":
      return [
        { slot: { kind: "next" }, label: "When it happens", target: step.next },
        { slot: { kind: "timeout" }, label: "On timeout", target: step.timeoutNext },
      ];
    default:
      return [{ slot: { kind: "next" }, label: null, target: step.next }];
  }
}

export function slotTarget(journey: Journey, edge: EdgeRef): string | null {
  if (edge.stepId === null) return journey.firstStepId;
  const step = journey.steps.find((s) => s.id === edge.stepId);
  if (!step) return null;
  return slotsOf(step).find((s) => sameSlot(s.slot, edge.slot))?.target ?? null;
}

function sameSlot(a: Slot, b: Slot): boolean {
  return a.kind === b.kind && (a.kind !== "path" || a.index === (b as { index: number }).index);
}

function withTarget(step: JourneyStep, slot: Slot, target: string | null): JourneyStep {
  switch (slot.kind) {
    case "path":
      if (step.type !== "branch") return step;
      return { ...step, paths: step.paths.map((p, i) => (i === slot.index ? { ...p, next: target } : p)) };
    case "else":
      return step.type === "branch" ? { ...step, elseNext: target } : step;
    case "timeout":
      return step.type === "wait_for_event" ? { ...step, timeoutNext: target } : step;
    default:
      return step.type === "end" || step.type === "branch" ? step : { ...step, next: target };
  }
}

/** A fresh id for a step of this type (`send_2`, `wait_1`…). */
export function newStepId(journey: Pick<Journey, "steps"> | null, type: JourneyStepType): string {
  const taken = new Set(journey?.steps.map((s) => s.id) ?? []);
  for (let n = 1; ; n += 1) {
    const id = `${type}_${n}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * A new step of a type, going on to `next`. Its blanks (template, event name, condition) are left for
 * the user and fail validation until filled: the builder shows them on the node.
 */
export function blankStep(type: JourneyStepType, id: string, next: string | null): JourneyStep {
  const base = { id, name: null };
  switch (type) {
    case "send":
      return { ...base, type, templateId: "", messageConfig: { variables: [] }, senderId: null, next };
    case "wait":
      return { ...base, type, wait: { kind: "duration", seconds: 3600 }, next };
    case "wait_for_event":
      return { ...base, type, event: { kind: "read" }, timeoutSeconds: 86_400, next, timeoutNext: null };
    case "branch":
      return {
        ...base,
        type,
        paths: [{ name: "Path 1", conditions: [{ subject: { kind: "last_message_status" }, operator: "equals", value: "read" }], next: null }],
        elseNext: next,
      };
    case "update_contact":
      return { ...base, type, set: [{ attribute: "", value: "" }], addToListIds: [], removeFromListIds: [], next };
    case "end":
      return { ...base, type };
  }
}

/** Adds a step of `type` on an edge: the edge now leads to it, and it leads where the edge led. */
export function insertStep(journey: Journey | null, edge: EdgeRef, type: JourneyStepType): { journey: Journey; id: string } {
  const id = newStepId(journey, type);
  const target = journey ? slotTarget(journey, edge) : null;
  const step = blankStep(type, id, target);
  if (!journey) return { id, journey: { schemaVersion: 1, firstStepId: id, steps: [step], exitEvents: [], entryEvents: [], reentry: { rule: "if_not_active", periodDays: null }, goal: null } };
  const steps = journey.steps.map((s) => (s.id === edge.stepId ? withTarget(s, edge.slot, id) : s));
  return { id, journey: { ...journey, firstStepId: edge.stepId === null ? id : journey.firstStepId, steps: [...steps, step] } };
}

/** The steps reachable from the first one. */
export function reachableIds(journey: Pick<Journey, "steps" | "firstStepId">): Set<string> {
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const stack = [journey.firstStepId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const step = byId.get(id);
    if (!step || seen.has(id)) continue;
    seen.add(id);
    stack.push(...nextStepIds(step).filter((n): n is string => n !== null));
  }
  return seen;
}

/**
 * Removes a step: what led to it now leads to its first way on (`next`, the first path); steps only
 * reachable through its other ways are removed with it. Null when no step is left.
 */
export function deleteStep(journey: Journey, id: string): { journey: Journey | null; removed: string[] } {
  const step = journey.steps.find((s) => s.id === id);
  if (!step) return { journey, removed: [] };
  const onward = nextStepIds(step)[0] ?? null;
  const relink = (target: string | null) => (target === id ? onward : target);
  const steps = journey.steps
    .filter((s) => s.id !== id)
    .map((s): JourneyStep => {
      switch (s.type) {
        case "end":
          return s;
        case "branch":
          return { ...s, paths: s.paths.map((p) => ({ ...p, next: relink(p.next) })), elseNext: relink(s.elseNext) };
        case "wait_for_event":
          return { ...s, next: relink(s.next), timeoutNext: relink(s.timeoutNext) };
        default:
          return { ...s, next: relink(s.next) };
      }
    });
  const firstStepId = journey.firstStepId === id ? onward : journey.firstStepId;
  if (firstStepId === null) return { journey: null, removed: journey.steps.map((s) => s.id) };
  const reachable = reachableIds({ steps, firstStepId });
  // Steps that were already unconnected before stay (the user is fixing them); only the ones this removal cut off go.
  const before = reachableIds(journey);
  const kept = steps.filter((s) => reachable.has(s.id) || !before.has(s.id));
  const removed = journey.steps.map((s) => s.id).filter((sid) => !kept.some((s) => s.id === sid));
  return { journey: { ...journey, firstStepId, steps: kept }, removed };
}

/** Replaces one step (by id), keeping its place. */
export function replaceStep(journey: Journey, id: string, next: JourneyStep): Journey {
  const steps = journey.steps.map((s) => (s.id === id ? next : s));
  return { ...journey, steps, firstStepId: journey.firstStepId === id ? next.id : journey.firstStepId };
}

/** What the flow draws under an edge: a step (drawn here, the first place it is reached), a link to one drawn elsewhere, or the end. */
export type FlowItem = { kind: "step"; step: JourneyStep; branches: FlowBranch[] } | { kind: "continues"; stepId: string } | { kind: "end" };
export interface FlowBranch {
  edge: EdgeRef;
  label: string | null;
  items: FlowItem[];
}

/**
 * The vertical flow as a tree: from the first step down, each step followed by the run of steps
 * after it; a step with several ways on ends its run with one branch per way. A step reached a second
 * time is a `continues` link. Also returns the steps no path reaches (drawn apart, to delete or relink).
 */
export function layoutJourney(journey: Journey): { root: FlowBranch; unreachable: JourneyStep[] } {
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const drawn = new Set<string>();
  const run = (edge: EdgeRef, label: string | null, start: string | null): FlowBranch => {
    const items: FlowItem[] = [];
    let current = start;
    while (true) {
      if (current === null) {
        items.push({ kind: "end" });
        break;
      }
      const step = byId.get(current);
      if (!step || drawn.has(current)) {
        items.push({ kind: "continues", stepId: current });
        break;
      }
      drawn.add(current);
      const slots = slotsOf(step);
      if (slots.length === 1) {
        items.push({ kind: "step", step, branches: [] });
        current = slots[0]!.target;
        continue;
      }
      items.push({ kind: "step", step, branches: slots.map((s) => run({ stepId: step.id, slot: s.slot }, s.label, s.target)) });
      break;
    }
    return { edge, label, items };
  };
  const root = run({ stepId: null, slot: { kind: "next" } }, null, journey.firstStepId);
  return { root, unreachable: journey.steps.filter((s) => !drawn.has(s.id)) };
}

/** The edge a new step under an item goes on: after a step with one way on, that way. */
export function edgeAfter(step: JourneyStep): EdgeRef | null {
  const slots = slotsOf(step);
  return slots.length === 1 ? { stepId: step.id, slot: slots[0]!.slot } : null;
}

/** Issue paths (`["steps", 2, "next"]` or `journey.steps[2].next`) → the id of the step they name, or null for the journey's own settings. */
export function stepIdOfPath(journey: Journey, path: (string | number)[] | string): string | null {
  const parts = typeof path === "string" ? path.replace(/^journey\.?/, "").split(/[.[\]]+/).filter(Boolean) : path.map(String);
  if (parts[0] !== "steps" || parts[1] === undefined) return null;
  // By index (the document's paths) or by id (a deploy check may name the step).
  return (/^\d+$/.test(parts[1]) ? journey.steps[Number(parts[1])]?.id : journey.steps.find((s) => s.id === parts[1])?.id) ?? null;
}
