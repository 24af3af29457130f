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

  errors.push(...templateChecks(input.template), ...variableChecks(input.messageConfig, input.template), ...senderChecks(input.sender));
  return errors;
}

type CheckedTemplate = DeployCheckInput["template"];

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
        message: `The template "${template.name}" is ${template.status.toLowerCase()}; WhatsApp only sends approved templates.`,
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

export function senderChecks(sender: DeployCheckInput["sender"]): FieldError[] {
  if (sender.configured) return [];
  return [
    {
      path: "sender",
      code: "sender_not_configured",
      message: "WhatsApp is not fully set up. Finish Settings → WhatsApp or switch back to the sandbox.",
    },
  ];
}

export interface BulkLaunchCheckInput {
  messageConfig: unknown;
  template: CheckedTemplate;
  sender: DeployCheckInput["sender"] & { throughputPerSecond: number };
  sendRatePerSecond: number | null;
  audienceCount: number;
  /** Recipients the daily messaging limit allows now (null: no limit or unknown). */
  availableUnderTier: number | null;
  tierKnown: boolean;
  allowTierWait: boolean;
}

/** Launch checks of a bulk campaign: blocking errors and warnings, each with a path for the builder. */
export function bulkLaunchChecks(input: BulkLaunchCheckInput): { errors: FieldError[]; warnings: FieldError[] } {
  const errors: FieldError[] = [...templateChecks(input.template), ...variableChecks(input.messageConfig, input.template), ...senderChecks(input.sender)];
  const warnings: FieldError[] = [];
  if (input.audienceCount === 0) {
    errors.push({ path: "audience", code: "audience_empty", message: "The audience has no contact who can receive messages (opted-out contacts are left out)." });
  }
  if (input.sendRatePerSecond !== null && input.sendRatePerSecond > input.sender.throughputPerSecond) {
    errors.push({
      path: "sendRate",
      code: "above_throughput",
      message: `The send rate (${input.sendRatePerSecond}/s) is above the sender's throughput (${input.sender.throughputPerSecond}/s).`,
    });
  }
  if (!input.tierKnown) {
    warnings.push({
      path: "tier",
      code: "tier_unknown",
      message: "The sender's daily messaging limit is not known yet (Settings → WhatsApp → Test connection reads it). WhatsApp refuses sends above it.",
    });
  } else if (input.availableUnderTier !== null && input.audienceCount > input.availableUnderTier) {
    const issue = {
      path: "tier",
      code: "tier_exceeded",
      message: `The daily messaging limit allows ${input.availableUnderTier.toLocaleString("en-US")} more recipients now; the audience has ${input.audienceCount.toLocaleString("en-US")}. ${
        input.allowTierWait ? "The rest wait until the rolling 24 hours free up." : "Launch with allowTierWait to send the rest as the rolling 24 hours free up."
      }`,
    };
    (input.allowTierWait ? warnings : errors).push(issue);
  }
  return { errors, warnings };
}
