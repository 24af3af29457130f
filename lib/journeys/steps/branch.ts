// A branch: the first path whose conditions all hold, else `elseNext`. Text is compared trimmed and
// case-insensitively; greater/less than compare numbers (a value that is not a number never matches).
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { JourneyCondition, JourneyStep } from "@/lib/campaigns/journey";
import { contactAttributes } from "@/lib/outbox/compose";
import type { RunRow, StepContext, StepResult } from "../run";

type BranchStep = Extract<JourneyStep, { type: "branch" }>;

export interface BranchFacts {
  attributes: Record<string, unknown>;
  context: RunRow["context"];
  lastMessageStatus: string | null;
  reply: RunRow["last_reply"];
}

function byPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[/^\d+$/.test(part) && Array.isArray(current) ? Number(part) : part];
  }
  return current;
}

function subjectValue(condition: JourneyCondition, facts: BranchFacts): unknown {
  const subject = condition.subject;
  switch (subject.kind) {
    case "attribute":
      return facts.attributes[subject.attribute];
    case "trigger":
      return facts.context.fields && subject.field in facts.context.fields ? facts.context.fields[subject.field] : byPath(facts.context.properties, subject.field);
    case "last_message_status":
      return facts.lastMessageStatus;
    case "reply_text":
      return facts.reply?.text ?? null;
    case "button_payload":
      return facts.reply?.payload ?? null;
  }
}

const text = (value: unknown) => (value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value)).trim().toLowerCase();
const number = (value: unknown) => (typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN);

export function conditionHolds(condition: JourneyCondition, facts: BranchFacts): boolean {
  const actual = subjectValue(condition, facts);
  const present = actual !== null && actual !== undefined && text(actual) !== "";
  switch (condition.operator) {
    case "exists":
      return present;
    case "not_exists":
      return !present;
    case "equals":
      return present && text(actual) === text(condition.value);
    case "not_equals":
      return text(actual) !== text(condition.value);
    case "contains":
      return present && text(actual).includes(text(condition.value));
    case "greater_than":
    case "less_than": {
      const a = number(actual);
      const b = number(condition.value);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return condition.operator === "greater_than" ? a > b : a < b;
    }
  }
}

export async function runBranchStep(context: StepContext, step: BranchStep): Promise<StepResult> {
  const { run } = context;
  const [row] = await queryRows<{ name: string | null; attributes: Record<string, unknown> | null; status: string | null }>(
    context.tx,
    sql`select ct.name, ct.attributes, (select m.status from messages m where m.id = ${run.last_message_id}) as status
      from contacts ct where ct.id = ${run.contact_id}`,
  );
  const facts: BranchFacts = {
    attributes: contactAttributes(run.phone_number, row ? { name: row.name, attributes: row.attributes } : undefined, {}),
    context: run.context,
    lastMessageStatus: row?.status ?? null,
    reply: run.last_reply,
  };
  const index = step.paths.findIndex((path) => path.conditions.every((condition) => conditionHolds(condition, facts)));
  if (index === -1) return { kind: "next", history: { stepId: step.id, outcome: "else" }, next: step.elseNext };
  return { kind: "next", history: { stepId: step.id, outcome: `path:${index}`, detail: step.paths[index]!.name }, next: step.paths[index]!.next };
}
