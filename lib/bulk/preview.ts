// The bulk builder's preview: the message as one real contact of the audience would read it (step
// through them by index), and how many contacts would get an empty variable.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { messageConfigSchema } from "@/lib/campaigns/schemas";
import { validationFailed } from "@/lib/http/errors";
import { contactAttributes } from "@/lib/outbox/compose";
import { attributeText } from "@/lib/templates/resolve";
import { listTemplateVariables, previewTemplate, type TemplatePreview } from "@/lib/templates";
import { getTemplateRow } from "@/lib/templates/service";
import { bulkAudienceSql, countAudienceTotals } from "./audience";
import { renderingSql } from "./render-sql";
import { previewRequestSchema, type PreviewRequest } from "./schemas";

export interface BulkPreview {
  total: number;
  index: number;
  contact: { id: string; phone: string; name: string | null } | null;
  rendered: { text: string; preview: TemplatePreview } | null;
  emptyVariables: string[];
  contactsWithEmptyVariables: number;
  /** Per variable key (those without a fallback): how many contacts of the audience have no value for it. */
  contactsWithEmptyVariable: Record<string, number>;
}

/** The text a preview shows: header text, body and footer, as `renderTemplate` joins them. */
function previewText(preview: TemplatePreview): string {
  return [preview.header?.kind === "text" ? preview.header.text : null, preview.body, preview.footer].filter((part): part is string => Boolean(part)).join("\n");
}

export async function previewBulkMessage(db: Executor, workspaceId: string, input: PreviewRequest): Promise<BulkPreview> {
  const request = previewRequestSchema.parse(input);
  const messageConfig = messageConfigSchema.parse(request.messageConfig);
  const template = await getTemplateRow(db, workspaceId, request.templateId);
  if (!template) throw validationFailed([{ path: "templateId", code: "not_found", message: "No template with this id exists in your workspace." }]);
  const audienceSql = await bulkAudienceSql(db, workspaceId, request.audience);
  const rendering = renderingSql(template, messageConfig);
  const exclude = request.audience.excludeContactsWithEmptyVariables === true;
  const counts = await countAudienceTotals(db, audienceSql, rendering);
  const missingCount = counts.withEmptyVariables;
  // The contacts stepped through: those left out are skipped at launch, never shown.
  const total = counts.total - (exclude ? missingCount : 0);
  const [contact] = await queryRows<{ id: string; phone_number: string; name: string | null; attributes: Record<string, unknown> | null }>(
    db,
    sql`select c.id, c.phone_number, c.name, c.attributes from (${audienceSql}) a join contacts c on c.id = a.id ${exclude ? rendering.joins : sql``}
      ${exclude ? sql`where not ${rendering.missing}` : sql``}
      order by c.id offset ${request.index} limit 1`,
  );
  if (!contact) return { total, index: request.index, contact: null, rendered: null, emptyVariables: [], contactsWithEmptyVariables: missingCount, contactsWithEmptyVariable: counts.emptyByVariable };

  const attributes = contactAttributes(contact.phone_number, { name: contact.name, attributes: contact.attributes }, {});
  const byKey = new Map(messageConfig.variables.map((v) => [v.key, v]));
  const values: Record<string, string | undefined> = {};
  const emptyVariables: string[] = [];
  for (const variable of listTemplateVariables(template)) {
    const mapping = byKey.get(variable.key);
    const value = (mapping?.attribute ? attributeText(attributes[mapping.attribute]) : null) ?? (mapping?.fallback?.trim() ? mapping.fallback : null);
    if (value === null) emptyVariables.push(variable.key);
    else values[variable.key] = value;
  }
  const preview = previewTemplate(template, values);
  return {
    total,
    index: request.index,
    contact: { id: contact.id, phone: contact.phone_number, name: contact.name },
    rendered: { text: previewText(preview), preview },
    emptyVariables,
    contactsWithEmptyVariables: missingCount,
    contactsWithEmptyVariable: counts.emptyByVariable,
  };
}
