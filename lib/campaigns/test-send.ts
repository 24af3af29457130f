// Test sends of any campaign (`POST /api/v1/campaigns/{id}/test-send`), by its kind: a bulk
// campaign's test is filled from the contact, a trigger campaign's from an example request body.
// The caller dispatches the queued messages.
import type { Executor } from "@/db";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { campaignKind, type TestSendInput } from "./kinds";
import { loadCampaignRow } from "./service";

export async function sendTestMessages(db: Executor, workspaceId: string, campaignId: string, input: TestSendInput): Promise<PublicMessage[]> {
  const { kind } = await loadCampaignRow(db, workspaceId, campaignId);
  return campaignKind(kind).sendTest(db, workspaceId, campaignId, input);
}
