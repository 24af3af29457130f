// Template management on the Cloud API: creating a template for review
// (`POST /{version}/{waba-id}/message_templates`) and the `message_template_status_update`
// webhook's decisions, worded for a marketer.
import type { SubmittedTemplate, TemplateStatusChange, TemplateSubmission } from "../types";
import { graphRequest, type GraphConfig } from "./graph";

interface CreatedTemplate {
  id?: string | number;
  status?: string;
  category?: string;
}

/** Creates the template in the business account; Meta answers with its id and (usually) PENDING. */
export async function createMessageTemplate(config: GraphConfig, wabaId: string, template: TemplateSubmission): Promise<SubmittedTemplate> {
  const body = await graphRequest<CreatedTemplate>(config, "POST", `${encodeURIComponent(wabaId)}/message_templates`, {
    body: {
      name: template.name,
      language: template.language,
      category: template.category,
      parameter_format: template.parameterFormat.toLowerCase(),
      components: template.components,
    },
  });
  return {
    externalId: String(body.id ?? ""),
    status: String(body.status ?? "PENDING").toUpperCase(),
    category: String(body.category ?? template.category).toUpperCase(),
  };
}

/** Meta's rejection reasons (`reason` of the status update) in words a marketer can act on. */
const REJECTION_REASONS: Record<string, string> = {
  ABUSIVE_CONTENT: "WhatsApp found the content abusive.",
  INCORRECT_CATEGORY: "The content does not fit the category chosen: promotional copy belongs in a marketing template.",
  INVALID_FORMAT: "The template's format is invalid (variables, examples or length).",
  SCAM: "WhatsApp considered the template a possible scam.",
  TAG_CONTENT_MISMATCH: "The content does not match the category or language chosen.",
  PROMOTIONAL: "Promotional content is not allowed in this category.",
};

export function describeTemplateRejection(reason: string | null | undefined): string | null {
  if (!reason || reason.toUpperCase() === "NONE") return null;
  return REJECTION_REASONS[reason.toUpperCase()] ?? reason.replace(/_/g, " ").toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null);

/** One `message_template_status_update` change value; null when it is not one. */
export function parseTemplateStatusUpdate(field: unknown, value: Record<string, unknown>): TemplateStatusChange | null {
  if (field !== "message_template_status_update") return null;
  const event = asString(value.event)?.toUpperCase();
  if (!event) return null;
  const externalId = asString(value.message_template_id);
  const name = asString(value.message_template_name);
  if (!externalId && !name) return null;
  const info = asRecord(value.other_info);
  const detail = [asString(info?.title), asString(info?.description)].filter(Boolean).join(": ");
  const reason = event === "REJECTED" ? describeTemplateRejection(asString(value.reason)) : detail || describeTemplateRejection(asString(value.reason));
  return { externalId, name, language: asString(value.message_template_language), status: event, reason: reason || null };
}
