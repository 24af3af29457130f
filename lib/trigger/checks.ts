// Deploy checks of a trigger campaign (DESIGN.md "Campaigns"): its mapping, then the checks every
// kind shares (template, variables, sender); each failure carries a path naming the builder node.
import { senderChecks, templateChecks, variableChecks, type CheckedSender, type CheckedTemplate } from "@/lib/campaigns/checks";
import { triggerConfigSchema } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";

export interface DeployCheckInput {
  triggerConfig: unknown;
  messageConfig: unknown;
  template: CheckedTemplate;
  sender: CheckedSender;
  /** A journey campaign: the checks of its steps (journey-checks.ts), which replace the campaign's own template, variable and sender checks. */
  journeyChecks?: FieldError[] | null;
}

/** Paths start with `trigger`, `message`, `sender` or `journey`, so the builder can show each next to its node. */
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

  if (input.journeyChecks) errors.push(...input.journeyChecks);
  else errors.push(...templateChecks(input.template), ...variableChecks(input.messageConfig, input.template), ...senderChecks(input.sender));
  return errors;
}
