// An update step: attributes set (null removes one; `name` is the contact's name) and list
// memberships changed (lists of the run's workspace only), in one statement; a goal on an attribute
// converts the run when the contact now holds it.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import { NAME_ATTRIBUTE } from "@/lib/campaigns/schemas";
import type { JourneyGoal, JourneyStep } from "@/lib/campaigns/journey";
import { contactAttributes } from "@/lib/outbox/compose";
import { conditionHolds } from "./branch";
import type { StepContext, StepResult } from "../run";

type UpdateContactStep = Extract<JourneyStep, { type: "update_contact" }>;

function goalReached(goal: JourneyGoal | null, attributes: Record<string, unknown>): boolean {
  if (!goal || goal.kind !== "attribute") return false;
  return conditionHolds(
    { subject: { kind: "attribute", attribute: goal.attribute }, operator: goal.value === null ? "exists" : "equals", value: goal.value },
    { attributes, context: {}, lastMessageStatus: null, reply: null },
  );
}

export async function runUpdateContactStep(context: StepContext, step: UpdateContactStep): Promise<StepResult> {
  const { run } = context;
  const name = step.set.find((s) => s.attribute === NAME_ATTRIBUTE);
  const others = step.set.filter((s) => s.attribute !== NAME_ATTRIBUTE);
  const setValues = Object.fromEntries(others.filter((s) => s.value !== null).map((s) => [s.attribute, s.value]));
  const removed = others.filter((s) => s.value === null).map((s) => s.attribute);
  const [row] = await queryRows<{ name: string | null; attributes: Record<string, unknown>; added: number; removed: number }>(
    context.tx,
    sql`with updated as (
        update contacts c
        set attributes = (c.attributes || ${JSON.stringify(setValues)}::jsonb) - array(select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb)),
            name = ${name ? sql`${name.value === null ? null : String(name.value)}` : sql`c.name`},
            updated_at = now()
        where c.id = ${run.contact_id} and c.workspace_id = ${run.workspace_id}
        returning c.id, c.name, c.attributes
      ),
      added as (
        insert into contact_list_members (list_id, contact_id)
        select l.id, u.id from contact_lists l, updated u
        where l.workspace_id = ${run.workspace_id} and l.id in (select jsonb_array_elements_text(${JSON.stringify(step.addToListIds)}::jsonb))
        on conflict do nothing
        returning 1
      ),
      dropped as (
        delete from contact_list_members m
        using contact_lists l
        where m.contact_id = ${run.contact_id} and m.list_id = l.id and l.workspace_id = ${run.workspace_id}
          and l.id in (select jsonb_array_elements_text(${JSON.stringify(step.removeFromListIds)}::jsonb))
        returning 1
      )
      select u.name, u.attributes, (select count(*) from added)::int as added, (select count(*) from dropped)::int as removed from updated u`,
  );
  if (!row) return { kind: "fail", error: `Step "${step.id}": the contact no longer exists.` };
  const detail = [
    step.set.length > 0 ? `${step.set.length} attribute${step.set.length === 1 ? "" : "s"} set` : null,
    step.addToListIds.length > 0 ? `added to ${row.added} list${row.added === 1 ? "" : "s"}` : null,
    step.removeFromListIds.length > 0 ? `removed from ${row.removed} list${row.removed === 1 ? "" : "s"}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  return {
    kind: "next",
    history: { stepId: step.id, outcome: "updated", detail },
    next: step.next,
    converted: goalReached(context.journey.goal, contactAttributes(run.phone_number, { name: row.name, attributes: row.attributes }, {})),
  };
}
