// Test sends of a bulk campaign: real messages through the sender (`source = 'test'`, dispatched
// before bulk messages), rendered for a real contact, never counted in the campaign's funnel.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { contacts, messages } from "@/db/schema";
import { templateChecks } from "@/lib/campaigns/checks";
import { parseStoredMessageConfig } from "@/lib/campaigns/schemas";
import { parsePhone } from "@/lib/contacts/phone";
import { newId } from "@/lib/crypto/random";
import { ApiError, validationFailed, type FieldError } from "@/lib/http/errors";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { contactAttributes, templatePayload } from "@/lib/outbox/compose";
import { attributeText, listTemplateVariables, renderTemplate } from "@/lib/templates";
import { campaignSenderRow } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { bulkAudienceSql, isAudienceEmpty, parseStoredAudience } from "./audience";
import { loadBulkCampaignRow } from "./launch";
import { MAX_TEST_PHONES } from "./schemas";

type StoredContact = { id: string; phone_number: string; name: string | null; attributes: Record<string, unknown> | null; opted_out_at: unknown };

/** Queues one test message per phone; the caller dispatches them (`dispatchSoon`). */
export async function sendBulkTest(db: Executor, workspaceId: string, id: string, phones: string[]): Promise<PublicMessage[]> {
  const row = await loadBulkCampaignRow(db, workspaceId, id);
  const errors: FieldError[] = [];
  const parsed: string[] = [];
  phones.slice(0, MAX_TEST_PHONES).forEach((raw, index) => {
    const phone = parsePhone(raw);
    if (phone.ok) parsed.push(phone.phone);
    else errors.push({ path: `phones.${index}`, code: "invalid_phone", message: `Not a valid phone number in E.164 (${phone.reason}).` });
  });
  if (errors.length > 0) throw validationFailed(errors);
  const unique = [...new Set(parsed)];

  const sender = await campaignSenderRow(db, workspaceId, row.senderId);
  const template = row.templateId ? await getTemplateRow(db, workspaceId, row.templateId) : null;
  const templateErrors = templateChecks(template ? { ...template, availableForSender: templateFitsSender(template, sender) } : null);
  if (templateErrors.length > 0 || !template) {
    throw new ApiError("launch_checks_failed", "The campaign's template cannot be sent.", { errors: templateErrors });
  }
  const messageConfig = parseStoredMessageConfig(row.messageConfig);

  const known = await db
    .select({ id: contacts.id, phone_number: contacts.phoneNumber, name: contacts.name, attributes: contacts.attributes, opted_out_at: contacts.optedOutAt })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.phoneNumber, unique)));
  const byPhone = new Map<string, StoredContact>(known.map((c) => [c.phone_number, c]));
  let sample: StoredContact | undefined;
  const audience = parseStoredAudience(row.audience);
  if (!isAudienceEmpty(audience)) {
    const audienceSql = await bulkAudienceSql(db, workspaceId, audience);
    [sample] = await queryRows<StoredContact>(
      db,
      sql`select c.id, c.phone_number, c.name, c.attributes, c.opted_out_at from (${audienceSql}) a join contacts c on c.id = a.id order by c.id limit 1`,
    );
  }

  const byKey = new Map(messageConfig.variables.map((v) => [v.key, v]));
  const now = new Date();
  const rows = unique.map((phone) => {
    const own = byPhone.get(phone);
    const source = own ?? sample;
    const attributes = contactAttributes(phone, source ? { name: source.name, attributes: source.attributes } : undefined, {});
    const values: Record<string, string> = {};
    for (const variable of listTemplateVariables(template)) {
      const mapping = byKey.get(variable.key);
      values[variable.key] =
        (mapping?.attribute ? attributeText(attributes[mapping.attribute]) : null) ??
        (mapping?.fallback?.trim() ? mapping.fallback : null) ??
        `[${mapping?.attribute ?? variable.key}]`;
    }
    const rendered = renderTemplate(template, values);
    const optedOut = Boolean(own?.opted_out_at);
    return {
      id: newId("msg"),
      workspaceId,
      campaignId: row.id,
      contactId: own?.id ?? null,
      senderId: sender.id,
      phoneNumber: phone,
      templateName: template.name,
      templateLanguage: template.language,
      renderedText: rendered.text,
      payload: { template: templatePayload(template, rendered.components) } as Record<string, unknown>,
      status: optedOut ? ("skipped" as const) : ("queued" as const),
      source: "test" as const,
      errorCode: optedOut ? "opted_out" : null,
      errorReason: optedOut ? "The contact opted out of messages." : null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
  });
  const inserted = await db.insert(messages).values(rows).returning();
  return inserted.map(toPublicMessage);
}
