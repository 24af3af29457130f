// Launch checks of a bulk campaign: the checks every kind shares (template, variables, sender), then
// its audience, rate and the daily messaging limit; blocking errors and warnings, each with a path.
import { senderChecks, templateChecks, variableChecks, type CheckedSender, type CheckedTemplate } from "@/lib/campaigns/checks";
import type { FieldError } from "@/lib/http/errors";
import { promotionalCopyInNonMarketing } from "@/lib/templates/promotional";

export interface BulkLaunchCheckInput {
  messageConfig: unknown;
  template: CheckedTemplate;
  sender: CheckedSender & { throughputPerSecond: number };
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
  const promotional = input.template ? promotionalCopyInNonMarketing(input.template) : null;
  if (input.template && promotional) {
    warnings.push({
      path: "message.template",
      code: "promotional_copy",
      message: `The template “${input.template.name}” is ${String(input.template.category).toLowerCase()}, but its copy looks promotional (“${promotional}”). WhatsApp expects offers in a marketing template and may re-categorise or pause it; write a marketing template for this campaign.`,
    });
  }
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
