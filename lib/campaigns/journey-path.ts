// "Preview a path": the way one example contact takes through a journey, deciding each branch the
// example can decide (trigger fields, attributes) and saying where only the run can tell.
import { readFieldPath } from "./field-path";
import type { Journey, JourneyCondition, JourneyStep } from "./journey";

export interface PathStop {
  step: JourneyStep;
  /** How the contact leaves the step when it has several ways: the way's label, and whether the example decided it. */
  way: { label: string; decided: boolean; reason?: string } | null;
}

const text = (value: unknown) => String(value).trim().toLowerCase();

/** A condition on the example: true / false, or null when it depends on what happens during the run. */
export function evaluateCondition(condition: JourneyCondition, example: { body: unknown; attributes: Record<string, unknown> }): boolean | null {
  const { subject, operator, value } = condition;
  let actual: unknown;
  if (subject.kind === "attribute") actual = example.attributes[subject.attribute];
  else if (subject.kind === "trigger") actual = readFieldPath(Array.isArray(example.body) ? example.body[0] : example.body, subject.field);
  else return null;
  const present = actual !== undefined && actual !== null && actual !== "";
  switch (operator) {
    case "exists":
      return present;
    case "not_exists":
      return !present;
    case "equals":
      return present && text(actual) === text(value);
    case "not_equals":
      return !present || text(actual) !== text(value);
    case "contains":
      return present && text(actual).includes(text(value));
    case "greater_than":
    case "less_than": {
      const a = Number(actual);
      const b = Number(value);
      if (!present || Number.isNaN(a) || Number.isNaN(b)) return false;
      return operator === "greater_than" ? a > b : a < b;
    }
  }
}

/** The steps the example contact goes through, from the first, in order (a journey has no cycles; the walk stops at a step seen twice all the same). */
export function previewJourneyPath(journey: Journey, example: { body: unknown; attributes: Record<string, unknown> }): PathStop[] {
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const stops: PathStop[] = [];
  const seen = new Set<string>();
  let current: string | null = journey.firstStepId;
  while (current !== null && byId.has(current) && !seen.has(current)) {
    seen.add(current);
    const step: JourneyStep = byId.get(current)!;
    if (step.type === "branch") {
      let chosen: { label: string; next: string | null; decided: boolean; reason?: string } | null = null;
      for (const path of step.paths) {
        const results = path.conditions.map((c) => evaluateCondition(c, example));
        if (results.includes(false)) continue;
        if (results.includes(null)) {
          chosen = { label: path.name, next: path.next, decided: false, reason: "depends on what the contact does during the run" };
          break;
        }
        chosen = { label: path.name, next: path.next, decided: true };
        break;
      }
      chosen ??= { label: "Otherwise", next: step.elseNext, decided: true };
      stops.push({ step, way: { label: chosen.label, decided: chosen.decided, reason: chosen.reason } });
      current = chosen.next;
    } else if (step.type === "wait_for_event") {
      stops.push({ step, way: { label: "When it happens", decided: false, reason: "assumed: the event happens before the timeout" } });
      current = step.next;
    } else {
      stops.push({ step, way: null });
      current = step.type === "end" ? null : step.next;
    }
  }
  return stops;
}
