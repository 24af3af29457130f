// Deploy checks (DESIGN.md "Campaigns"): each failure carries a path naming the builder node it belongs to.
import type { FieldError } from "@/lib/http/errors";
import { describeVariable, listTemplateVariables } from "@/lib/templates/variables";
import type { ParameterFormat } from "@/lib/templates/types";
import { messageConfigSchema, triggerConfigSchema } from "./schemas";

export interface DeployCheckInput {
  triggerConfig: unknown;
  messageConfig: unknown;
  template: { name: string; status: string; parameterFormat: ParameterFormat; components: unknown[]; availableForSender: boolean } | null;
  sender: { provider: "sandbox" | "whatsapp"; configured: boolean };
}

/** Paths start with `trigger`, `message` or `sender`, so the builder can show each next to its node. */
export function deployChecks(input: DeployCheckInput): FieldError[] {
  const errors: FieldError[] = [];
  const trigger = triggerConfigSchema.safeParse(input.triggerConfig);
  if (!trigger.success) {
    for (const issue of trigger.error.issues) {
      errors.push({ path: ["trigger", ...issue.path.map(String)].join("."), code: "invalid_trigger", message: issue.message });
    }
  } else if (!trigger.data.phoneField) {
    errors.push({ path: "trigger.phoneField", code: "phone_mapping_missing", message: "Choose the request field that holds the phone number." });
  }

  const template = input.template;
  if (!template) {
    errors.push({ path: "message.template", code: "template_missing", message: "Choose the WhatsApp template to send." });
  } else if (!template.availableForSender) {
    errors.push({
      path: "message.template",
      code: "template_unavailable",
      message: `The template "${template.name}" does not belong to the current sender. Sync templates and pick one again.`,
    });
  } else if (template.status !== "APPROVED") {
    errors.push({
      path: "message.template",
      code: "template_not_approved",
      message: `The template "${template.name}" is ${template.status.toLowerCase()}; WhatsApp only sends approved templates.`,
    });
  }

  const message = messageConfigSchema.safeParse(input.messageConfig);
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

  if (!input.sender.configured) {
    errors.push({
      path: "sender",
      code: "sender_not_configured",
      message: "WhatsApp is not fully set up. Finish Settings → WhatsApp or switch back to the sandbox.",
    });
  }
  return errors;
}
