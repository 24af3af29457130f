// The sandbox's template review: a submitted template waits `sandboxTemplateReviewMs()` as PENDING,
// then is approved, or rejected with WhatsApp's reason when it breaks the one rule below (the
// ratio of variables to words that Meta enforces, error 2388293 on the Cloud API).
import { randomBase62 } from "@/lib/crypto/random";
import type { SubmittedTemplate, TemplateStatusChange, TemplateSubmission } from "../types";
import { describeTemplateRejection } from "../whatsapp/templates";

/** How long a sandbox template stays PENDING (SANDBOX_TEMPLATE_REVIEW_MS, default 5 s). */
export function sandboxTemplateReviewMs(): number {
  const value = Number(process.env.SANDBOX_TEMPLATE_REVIEW_MS);
  return Number.isFinite(value) && value >= 0 ? value : 5_000;
}

/** The body needs at least this many words of its own per variable. */
export const SANDBOX_WORDS_PER_VARIABLE = 3;

export function submitSandboxTemplate(template: TemplateSubmission): SubmittedTemplate {
  return { externalId: `sbx_${randomBase62(16)}`, status: "PENDING", category: template.category.toUpperCase() };
}

/**
 * What the sandbox's reviewer decides about a template: REJECTED (INVALID_FORMAT) when its body has
 * fewer than three words of its own per variable, else APPROVED.
 */
export function sandboxTemplateVerdict(template: Pick<TemplateSubmission, "components">): Pick<TemplateStatusChange, "status" | "reason"> {
  const body = template.components.find((c) => (c as { type?: string }).type === "BODY") as { text?: string } | undefined;
  const text = body?.text ?? "";
  const variables = (text.match(/\{\{[^{}]*\}\}/g) ?? []).length;
  const words = text.replace(/\{\{[^{}]*\}\}/g, " ").split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  if (variables > 0 && words < variables * SANDBOX_WORDS_PER_VARIABLE) {
    return { status: "REJECTED", reason: `${describeTemplateRejection("INVALID_FORMAT")} The body has too many variables for its length: write at least ${SANDBOX_WORDS_PER_VARIABLE} words per variable.` };
  }
  return { status: "APPROVED", reason: null };
}
