// What the builder shows on each journey node: the document's own rules (zod shape, checkJourney's
// graph rules), the send steps' message rules (an approved template, every blank filled) and the
// API's answers, each filed under the step it names or under the journey's settings.
import { checkJourney, journeySchema, type Journey } from "./journey";
import { stepIdOfPath } from "./journey-edit";

export const SETTINGS = "settings";

export interface NodeIssue {
  path: string;
  message: string;
}

interface TemplateInfo {
  id: string;
  name: string;
  status: string;
  variables: { key: string }[];
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "");
}

/** Issues by step id (`SETTINGS` for exit events, entry, re-entry and goal). */
export function journeyIssues(journey: Journey, context: { mappedFields: readonly string[]; campaignId?: string; templates: readonly TemplateInfo[] }): Map<string, NodeIssue[]> {
  const byStep = new Map<string, NodeIssue[]>();
  const add = (stepId: string | null, issue: NodeIssue) => {
    const key = stepId ?? SETTINGS;
    const list = byStep.get(key) ?? [];
    if (!list.some((i) => i.message === issue.message)) list.push(issue);
    byStep.set(key, list);
  };
  const messageChecked = new Set<string>();
  journey.steps.forEach((step, index) => {
    if (step.type !== "send") return;
    const template = context.templates.find((t) => t.id === step.templateId);
    if (!step.templateId) {
      messageChecked.add(step.id);
      add(step.id, { path: `steps[${index}].templateId`, message: "Choose the template this step sends." });
    } else if (!template) {
      add(step.id, { path: `steps[${index}].templateId`, message: "This template no longer exists; choose another." });
    } else {
      if (template.status !== "APPROVED") add(step.id, { path: `steps[${index}].templateId`, message: `${template.name} is not approved by WhatsApp yet.` });
      for (const variable of template.variables) {
        const mapping = step.messageConfig.variables.find((v) => v.key === variable.key);
        if (!mapping?.attribute && !mapping?.fallback?.trim()) add(step.id, { path: `steps[${index}].messageConfig`, message: `Fill ${variable.key} with an attribute or a fallback.` });
      }
    }
  });
  const parsed = journeySchema.safeParse(journey);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const stepId = stepIdOfPath(journey, issue.path as (string | number)[]);
      // An empty template is said once, in words, above.
      if (stepId && messageChecked.has(stepId) && issue.path.includes("templateId")) continue;
      add(stepId, { path: pathText(issue.path), message: issue.message });
    }
    return byStep;
  }
  for (const issue of checkJourney(parsed.data, context)) add(stepIdOfPath(journey, issue.path), { path: pathText(issue.path), message: issue.message });
  return byStep;
}

/** The API's 422 errors on the journey (`journey.steps[2].next`, or a deploy check naming `journey.steps[2]…`), by step. */
export function serverIssues(journey: Journey, errors: readonly { path: string; message: string }[]): Map<string, NodeIssue[]> {
  const byStep = new Map<string, NodeIssue[]>();
  for (const error of errors) {
    if (!error.path.startsWith("journey")) continue;
    const key = stepIdOfPath(journey, error.path) ?? SETTINGS;
    byStep.set(key, [...(byStep.get(key) ?? []), { path: error.path, message: error.message }]);
  }
  return byStep;
}
