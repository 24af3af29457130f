// Test sends of any campaign (`POST /api/v1/campaigns/{id}/test-send`), by its kind: a bulk
// campaign's test is filled from the contact, a trigger campaign's from an example request body.
// The caller dispatches the queued messages.
import { isSupportedCountry } from "libphonenumber-js/max";
import type { Executor } from "@/db";
import { parsePhone, type CountryCode } from "@/lib/contacts/phone";
import { validationFailed, type FieldError } from "@/lib/http/errors";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { campaignKind, type TestSendInput } from "./kinds";
import { loadCampaignRow } from "./service";

export async function sendTestMessages(db: Executor, workspaceId: string, campaignId: string, input: TestSendInput): Promise<PublicMessage[]> {
  const { kind } = await loadCampaignRow(db, workspaceId, campaignId);
  return campaignKind(kind).sendTest(db, workspaceId, campaignId, { ...input, phones: testPhones(input) });
}

/** The typed numbers in E.164, read by the one phone rule (imports and contacts use it too), or every problem at once. */
function testPhones(input: TestSendInput): string[] {
  const errors: FieldError[] = [];
  if (input.country !== undefined && !isSupportedCountry(input.country)) {
    errors.push({ path: "country", code: "invalid_country", message: `Unknown country "${input.country}": use an ISO 3166 code such as ES or US.` });
  }
  const defaultCountry = errors.length === 0 && input.country ? (input.country as CountryCode) : null;
  const phones = input.phones.map((raw, index) => {
    const parsed = parsePhone(raw, { defaultCountry });
    if (parsed.ok) return parsed.phone;
    errors.push({ path: `phones[${index}]`, code: "invalid_phone", message: `"${raw}" is not a valid phone number: ${parsed.reason}.` });
    return raw;
  });
  if (errors.length > 0) throw validationFailed(errors);
  return [...new Set(phones)];
}
