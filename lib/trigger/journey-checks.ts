// Deploy checks of a journey campaign: the graph rules against the trigger mapping, then for each
// send step what a one-message campaign checks for its message (template chosen, approved, of the
// step's sender; every variable mapped or with a fallback; sender set up). Paths name the step by
// id (`journey.steps.<id>.template`), so the builder shows each failure on its node.
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { sendStepChecks, type CheckedSendStep } from "@/lib/campaigns/checks";
import { checkJourney, type Journey } from "@/lib/campaigns/journey";
import { journeyMappedFields } from "@/lib/campaigns/journey-checks";
import type { TriggerConfig } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { isSenderConfigured, type SenderRow } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";

/** `["steps", 2, "next"]` → `journey.steps.<id of step 2>.next`. */
function stepPath(journey: Journey, path: (string | number)[]): string {
  const [first, index, ...rest] = path;
  const named = first === "steps" && typeof index === "number" && journey.steps[index] ? ["steps", journey.steps[index].id, ...rest] : path;
  return ["journey", ...named].join(".");
}

export async function journeyDeployChecks(
  db: Executor,
  workspaceId: string,
  input: { journey: Journey; triggerConfig: TriggerConfig; campaignId: string; campaignSender: SenderRow },
): Promise<FieldError[]> {
  const { journey } = input;
  const graph = checkJourney(journey, { mappedFields: journeyMappedFields(input.triggerConfig), campaignId: input.campaignId }).map((issue) => ({
    path: stepPath(journey, issue.path),
    code: issue.code,
    message: issue.message,
  }));
  const sendSteps = journey.steps.flatMap((step) => (step.type === "send" ? [step] : []));
  const senderIds = [...new Set(sendSteps.flatMap((step) => (step.senderId ? [step.senderId] : [])))];
  const named = senderIds.length === 0 ? [] : await db.select().from(senders).where(and(eq(senders.workspaceId, workspaceId), inArray(senders.id, senderIds)));
  const checked: CheckedSendStep[] = [];
  for (const step of sendSteps) {
    const sender = step.senderId ? (named.find((row) => row.id === step.senderId) ?? null) : input.campaignSender;
    const template = await getTemplateRow(db, workspaceId, step.templateId);
    checked.push({
      id: step.id,
      template: template ? { ...template, availableForSender: sender ? templateFitsSender(template, sender) : false } : null,
      messageConfig: step.messageConfig,
      sender: sender ? { provider: sender.provider, configured: isSenderConfigured(sender) } : null,
    });
  }
  return [...graph, ...sendStepChecks(checked)];
}
