import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { queryRows } from "@/db/rows";
import { messages, workspaces } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestCampaign, createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";

describe("messages' keys", () => {
  it("refuses a message whose workspace is not its campaign's", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    const campaignOfA = await createTestCampaign(a.workspaceId);
    await expect(createTestMessage({ workspaceId: b.workspaceId, campaignId: campaignOfA })).rejects.toThrow();
    const id = await createTestMessage({ workspaceId: a.workspaceId, campaignId: campaignOfA });
    expect(await getTestMessage(id)).toMatchObject({ workspaceId: a.workspaceId, campaignId: campaignOfA });
  });

  it("goes with its workspace (through its campaign)", async () => {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    const db = await getDb();
    await db.delete(workspaces).where(eq(workspaces.id, account.workspaceId));
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.id, id))).toHaveLength(0);
  });

  it("keeps queued messages (no wamid yet) out of the wamid index, and a wamid unique", async () => {
    const account = await createTestAccount();
    const wamid = `wamid.INTEGRITY${Date.now()}`;
    await createTestMessage({ workspaceId: account.workspaceId });
    await createTestMessage({ workspaceId: account.workspaceId });
    await createTestMessage({ workspaceId: account.workspaceId, status: "sent", providerMessageId: wamid });
    await expect(createTestMessage({ workspaceId: account.workspaceId, status: "sent", providerMessageId: wamid })).rejects.toThrow();
    const db = await getDb();
    const [index] = await queryRows<{ definition: string }>(db, sql`select indexdef as definition from pg_indexes where indexname = 'messages_wamid_idx'`);
    expect(index?.definition).toMatch(/WHERE \(wamid IS NOT NULL\)/);
  });
});
