// Test sends of any campaign (`POST /api/v1/campaigns/{id}/test-send`): a bulk campaign's test is
// filled from the contact (lib/bulk/test-send.ts), a trigger campaign's from an example request
// body (lib/trigger/test-send.ts). The caller dispatches the queued messages.
import type { z } from "zod";
import type { Executor } from "@/db";
import type { testSendRequestSchema } from "@/lib/bulk/schemas";
import { sendBulkTest } from "@/lib/bulk/test-send";
import { validationFailed } from "@/lib/http/errors";
import type { PublicMessage } from "@/lib/messaging/public-message";
import { sendTriggerTest } from "@/lib/trigger/test-send";
import { loadCampaignRow } from "./service";

export async function sendTestMessages(db: Executor, workspaceId: string, campaignId: string, input: z.output<typeof testSendRequestSchema>): Promise<PublicMessage[]> {
  const { kind } = await loadCampaignRow(db, workspaceId, campaignId);
  if (kind === "trigger") return sendTriggerTest(db, workspaceId, campaignId, input);
  if (input.request) {
    throw validationFailed([{ path: "request", code: "not_for_bulk", message: "Only trigger campaigns take an example request; a bulk test is filled from the contact." }]);
  }
  return sendBulkTest(db, workspaceId, campaignId, input.phones);
}
