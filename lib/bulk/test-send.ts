// Test sends of a bulk campaign: real messages through the sender (`source = 'test'`, dispatched
// before bulk messages), rendered for a real contact, never counted in the campaign's funnel.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { contacts } from "@/db/schema";
import { templateChecks } from "@/lib/campaigns/checks";
import { parseStoredMessageConfig } from "@/lib/campaigns/schemas";
import { ApiError } from "@/lib/http/errors";
import { toPublicMessage, type PublicMessage } from "@/lib/messaging/public-message";
import { composeFor, type CampaignSending } from "@/lib/outbox/compose";
import { queueTestMessages, type TestMessage } from "@/lib/outbox/test-sends";
import { campaignSenderRow } from "@/lib/senders/service";
import { getTemplateRow, templateFitsSender } from "@/lib/templates/service";
import { bulkAudienceSql, isAudienceEmpty, parseStoredAudience } from "./audience";
import { loadBulkCampaignRow } from "./launch";
import { MAX_TEST_PHONES } from "./schemas";

type StoredContact = { id: string; phone_number: string; name: string | null; attributes: Record<string, unknown> | null; opted_out_at: unknown };

/** Queues one test message per phone (E.164, read by sendTestMessages); the caller dispatches them (`dispatchSoon`). */
export async function sendBulkTest(db: Executor, workspaceId: string, id: string, phones: string[]): Promise<PublicMessage[]> {
  const row = await loadBulkCampaignRow(db, workspaceId, id);
  const unique = [...new Set(phones.slice(0, MAX_TEST_PHONES))];

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

  const sending: CampaignSending = { workspaceId, campaignId: row.id, senderId: sender.id, template, messageConfig };
  const tests = unique.map((phone): TestMessage => {
    const own = byPhone.get(phone);
    const source = own ?? sample;
    // Every variable renders: a value the contacts lack shows as `[attribute]`.
    const { draft } = composeFor(sending, { phone, contact: source ? { name: source.name, attributes: source.attributes } : undefined }, { placeholders: true });
    const optedOut = Boolean(own?.opted_out_at);
    return {
      draft,
      contactId: own?.id ?? null,
      skip: optedOut ? { errorCode: "opted_out", errorReason: "The contact opted out of messages." } : null,
    };
  });
  const inserted = await queueTestMessages(db, { workspaceId, campaignId: row.id, messages: tests });
  return inserted.map(toPublicMessage);
}
