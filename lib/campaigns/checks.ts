// The checks every kind builds its readiness from (DESIGN.md "Campaigns"): the template, its
// variables and the sender, each failure with a path naming the builder node it belongs to. A kind's
// own checks (trigger: deploy, bulk: launch) are in its folder.
import type { ChannelName } from "@/lib/channels/types";
import type { FieldError } from "@/lib/http/errors";
import { templateBlockReason } from "@/lib/templates/status";
import { describeVariable, listTemplateVariables } from "@/lib/templates/variables";
import type { ParameterFormat } from "@/lib/templates/types";
import { messageConfigSchema } from "./schemas";

/** A template as the checks see it: whether it belongs to the current sender, its status and variables. */
export type CheckedTemplate = { name: string; status: string; statusReason?: string | null; category?: string; parameterFormat: ParameterFormat; components: unknown[]; availableForSender: boolean } | null;

/** The workspace's sender as the checks see it. */
export interface CheckedSender {
  provider: ChannelName;
  configured: boolean;
}

/** The template is chosen, belongs to the current sender and is approved. */
export function templateChecks(template: CheckedTemplate): FieldError[] {
  if (!template) return [{ path: "message.template", code: "template_missing", message: "Choose the WhatsApp template to send." }];
  if (!template.availableForSender) {
    return [
      {
        path: "message.template",
        code: "template_unavailable",
        message: `The template "${template.name}" does not belong to the campaign's sender (its WhatsApp Business Account, or the sandbox). Pick one of its templates, or sync them.`,
      },
    ];
  }
  if (template.status !== "APPROVED") {
    return [
      {
        path: "message.template",
        code: "template_not_approved",
        message: templateBlockReason(template) ?? "",
      },
    ];
  }
  return [];
}

/** Every template variable (header, body, URL-button suffix) is mapped to an attribute or has a fallback. */
export function variableChecks(messageConfig: unknown, template: CheckedTemplate): FieldError[] {
  const errors: FieldError[] = [];
  const message = messageConfigSchema.safeParse(messageConfig);
  if (!message.success) {
    for (const issue of message.error.issues) {
      errors.push({ path: ["message", ...issue.path.map(String)].join("."), code: "invalid_message", message: issue.message });
    }
  } else if (template) {
    const byKey = new Map(message.data.variables.map((v) => [v.key, v]));
    for (const variable of listTemplateVariables(template)) {
      const mapping = byKey.get(variable.key);
      if (!mapping?.attribute && !mapping?.fallback) {
        errors.push({
          path: `message.variables.${variable.key}`,
          code: "variable_unmapped",
          message: `${describeVariable(variable)} needs a contact attribute or a fallback value.`,
        });
      }
    }
  }
  return errors;
}

export function senderChecks(sender: CheckedSender): FieldError[] {
  if (sender.configured) return [];
  return [
    {
      path: "sender",
      code: "sender_not_configured",
      message: "WhatsApp is not fully set up. Finish Settings → WhatsApp or switch back to the sandbox.",
    },
  ];
}

/** Where a send step's checks show: `message.template` → `journey.steps.<id>.template`, `sender` → `journey.steps.<id>.sender`. */
export function stepCheckPath(stepId: string, path: string): string {
  const at = `journey.steps.${stepId}`;
  if (path === "message.template") return `${at}.template`;
  if (path.startsWith("message.")) return `${at}.${path.slice("message.".length)}`;
  return `${at}.${path}`;
}

/** A journey's send step as the checks see it: its template, variable mapping and sender (null: none with its id). */
export interface CheckedSendStep {
  id: string;
  template: CheckedTemplate;
  messageConfig: unknown;
  sender: CheckedSender | null;
}

/** The campaign's template, variable and sender checks, for each send step, with paths naming the step. */
export function sendStepChecks(steps: CheckedSendStep[]): FieldError[] {
  return steps.flatMap((step) => {
    const sender: FieldError[] = step.sender
      ? senderChecks(step.sender)
      : [{ path: "sender", code: "sender_missing", message: "The step's sender does not exist in this workspace any more. Pick another number." }];
    return [...templateChecks(step.template), ...variableChecks(step.messageConfig, step.template), ...sender].map((error) => ({ ...error, path: stepCheckPath(step.id, error.path) }));
  });
}
