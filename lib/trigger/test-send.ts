// Test sends of a trigger campaign, from the builder and the deploy dialog: an example request body
// is validated and rendered exactly as a trigger request would be (the configuration on screen: the
// pending revision of a live campaign, else the campaign), then sent for real to the given phones as
// `source = 'test'` messages. Works before deploying; changes no contact; never counted.
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts } from "@/db/schema";
import { templateChecks } from "@/lib/campaigns/checks";
import { editedConfig } from "@/lib/campaigns/editor";
import { getCampaign } from "@/lib/campaigns/service";
import { optOutReason } from "@/lib/contacts/opt-out";
import { ApiError, validationFailed, type FieldError } from "@/lib/http/errors";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { composeFor, type CampaignSending } from "@/lib/outbox/compose";
import { queueTestMessages, type TestMessage } from "@/lib/outbox/test-sends";
import { campaignSenderRow } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { OPTED_OUT_CODE } from "@/lib/contacts/opt-out";
import { unrenderableErrors } from "./service";
import { writeFieldPath } from "./field-path";
import { validateTriggerItems } from "./validation";

/** Queues one test message per phone, rendered from `request` with its phone field set to that phone. */
export async function sendTriggerTest(
  db: Executor,
  workspaceId: string,
  campaignId: string,
  input: { phones: string[]; request?: Record<string, unknown> },
): Promise<PublicMessage[]> {
  const campaign = await getCampaign(db, workspaceId, campaignId);
  if (campaign.status === "archived") throw new ApiError("invalid_status_transition", "An archived campaign cannot send tests; unarchive it first.");
  const config = editedConfig(campaign);
  const sender = await campaignSenderRow(db, workspaceId, campaign.senderId);
  const template = config.templateId ? await getTemplateRow(db, workspaceId, config.templateId) : null;
  const templateErrors = templateChecks(template ? { ...template, availableForSender: templateFitsSender(template, sender) } : null);
  if (templateErrors.length > 0 || !template) throw new ApiError("launch_checks_failed", "The campaign's template cannot be sent.", { errors: templateErrors });

  const request = input.request ?? {};
  const phoneField = config.triggerConfig.phoneField;
  const items = input.phones.map((phone) => writeFieldPath(structuredClone(request), phoneField, phone));
  const validated = validateTriggerItems(config.triggerConfig, items, true);
  if (!validated.ok) {
    // `[i].field`: the phone's own problems point at phones[i], the body's at request.field.
    throw validationFailed(
      validated.errors.map((error) => {
        const [, index, field] = /^\[(\d+)\]\.?(.*)$/.exec(error.path) ?? [];
        const phonePath = field === phoneField || config.triggerConfig.phoneFallbacks.includes(field ?? "");
        return { ...error, path: phonePath || !field ? `phones[${index ?? 0}]` : `request.${field}` };
      }),
    );
  }

  const phones = validated.items.map((item) => item.phone);
  const stored = await db
    .select({ id: contacts.id, phone: contacts.phoneNumber, name: contacts.name, attributes: contacts.attributes, optedOutAt: contacts.optedOutAt, method: contacts.optOutMethod, detail: contacts.optOutDetail })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.phoneNumber, phones)));
  const byPhone = new Map(stored.map((contact) => [contact.phone, contact]));

  const sending: CampaignSending = { workspaceId, campaignId: campaign.id, senderId: sender.id, template, messageConfig: config.messageConfig };
  const errors: FieldError[] = [];
  const tests = validated.items.map((item, index): TestMessage | null => {
    const contact = byPhone.get(item.phone);
    const composed = composeFor(sending, { phone: item.phone, contact, incoming: item.attributes });
    if (!composed.ok) {
      errors.push(...unrenderableErrors(composed.missing, config.triggerConfig, (field) => (field ? `request.${field}` : `phones[${index}]`)));
      return null;
    }
    const skipped = (campaign.respectOptOut ?? true) && contact?.optedOutAt;
    return {
      draft: composed.draft,
      contactId: contact?.id ?? null,
      skip: skipped ? { errorCode: OPTED_OUT_CODE, errorReason: optOutReason({ optedOutAt: contact.optedOutAt, method: contact.method, detail: contact.detail }) } : null,
    };
  });
  if (errors.length > 0) throw validationFailed(errors, "A template variable has no value for this test.");
  const inserted = await queueTestMessages(db, { workspaceId, campaignId: campaign.id, messages: tests.filter((test) => test !== null) });
  return inserted.map(toPublicMessage);
}
