// A journey as the campaigns API saves it: the graph rules (journey.ts `checkJourney`) against the
// campaign's trigger mapping, and every template, sender and list a step names existing in the
// workspace. Failures are 422 `validation_failed` with paths into the request (`journey.steps[2].next`).
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { contactLists, senders, templates } from "@/db/schema";
import { validationFailed, type FieldError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/problem";
import { checkJourney, type Journey } from "./journey";
import type { TriggerConfig } from "./schemas";

/** The request field paths a journey's branches may read: those the trigger maps (phone included). */
export function journeyMappedFields(config: TriggerConfig): string[] {
  return [config.phoneField, ...config.phoneFallbacks, ...(config.countryField ? [config.countryField] : []), ...config.fields.flatMap((f) => [f.field, ...f.fallbacks])];
}

/** The graph rules' issues, as field errors under `journey`. */
export function journeyGraphErrors(journey: Journey, context: { triggerConfig: TriggerConfig; campaignId?: string }): FieldError[] {
  return checkJourney(journey, { mappedFields: journeyMappedFields(context.triggerConfig), campaignId: context.campaignId }).map((issue) => ({
    path: formatPath(["journey", ...issue.path]),
    code: issue.code,
    message: issue.message,
  }));
}

/** Templates, senders and lists the steps name that the workspace does not have. */
export async function journeyReferenceErrors(db: Executor, workspaceId: string, journey: Journey): Promise<FieldError[]> {
  const refs: { path: (string | number)[]; table: "template" | "sender" | "list"; id: string }[] = [];
  journey.steps.forEach((step, index) => {
    if (step.type === "send") {
      refs.push({ path: ["journey", "steps", index, "templateId"], table: "template", id: step.templateId });
      if (step.senderId) refs.push({ path: ["journey", "steps", index, "senderId"], table: "sender", id: step.senderId });
    }
    if (step.type === "update_contact") {
      step.addToListIds.forEach((id, i) => refs.push({ path: ["journey", "steps", index, "addToListIds", i], table: "list", id }));
      step.removeFromListIds.forEach((id, i) => refs.push({ path: ["journey", "steps", index, "removeFromListIds", i], table: "list", id }));
    }
  });
  const ids = (table: string) => [...new Set(refs.filter((r) => r.table === table).map((r) => r.id))];
  const [foundTemplates, foundSenders, foundLists] = await Promise.all([
    ids("template").length === 0
      ? []
      : db.select({ id: templates.id }).from(templates).where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, ids("template")))),
    ids("sender").length === 0 ? [] : db.select({ id: senders.id }).from(senders).where(and(eq(senders.workspaceId, workspaceId), inArray(senders.id, ids("sender")))),
    ids("list").length === 0
      ? []
      : db.select({ id: contactLists.id }).from(contactLists).where(and(eq(contactLists.workspaceId, workspaceId), inArray(contactLists.id, ids("list")))),
  ]);
  const known = { template: foundTemplates, sender: foundSenders, list: foundLists };
  return refs
    .filter((ref) => !known[ref.table].some((row) => row.id === ref.id))
    .map((ref) => ({ path: formatPath(ref.path), code: "not_found", message: `No ${ref.table} with the id ${ref.id} exists in your workspace.` }));
}

/** 422 `validation_failed` with every graph and reference problem of the journey. */
export async function assertValidJourney(db: Executor, workspaceId: string, journey: Journey, context: { triggerConfig: TriggerConfig; campaignId?: string }): Promise<void> {
  const errors = [...journeyGraphErrors(journey, context), ...(await journeyReferenceErrors(db, workspaceId, journey))];
  if (errors.length > 0) throw validationFailed(errors, "The journey is not valid.");
}
