import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import type { ClaimedMessage } from "./claims";
import { OUTCOME_UNKNOWN_CODE } from "./errors";
import { unrecordedSendCount, writeUnrecordedSends, type SentRecord } from "./results";

/** Results kept in the process after their writes failed (what `createSentWriter` keeps). */
function keep(records: SentRecord[]) {
  const global = globalThis as { __sendstreamUnrecordedSends?: Map<string, SentRecord> };
  global.__sendstreamUnrecordedSends ??= new Map();
  for (const record of records) global.__sendstreamUnrecordedSends.set(record.message.id, record);
}

describe("results written after their lease", () => {
  it("a known wamid replaces an outcome-unknown failure, never a settled status or another failure", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const campaign = await insertCampaignRow(workspaceId);
    const [unknown, delivered, rejected, sending] = await insertMessageRows(workspaceId, campaign.id, [
      { status: "failed", errorCode: OUTCOME_UNKNOWN_CODE, errorReason: "It may have been sent.", failedAt: new Date() },
      { status: "delivered" },
      { status: "failed", errorCode: "131026", errorReason: "Undeliverable.", failedAt: new Date() },
      { status: "sending" },
    ]);
    const sentAt = new Date();
    keep(
      [unknown!, delivered!, rejected!, sending!].map((row) => ({
        message: { id: row.id, lease: new Date() } as ClaimedMessage,
        providerMessageId: `wamid.kept.${row.id}`,
        sentAt,
        senderId: "snd_x",
      })),
    );
    expect(await writeUnrecordedSends(db)).toBe(2);
    expect(unrecordedSendCount()).toBe(0);
    const rows = await db.select().from(messages).where(inArray(messages.id, [unknown!.id, delivered!.id, rejected!.id, sending!.id]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(unknown!.id)).toMatchObject({ status: "sent", providerMessageId: `wamid.kept.${unknown!.id}`, errorCode: null, failedAt: null });
    expect(byId.get(sending!.id)).toMatchObject({ status: "sent", providerMessageId: `wamid.kept.${sending!.id}` });
    expect(byId.get(delivered!.id)).toMatchObject({ status: "delivered", providerMessageId: null });
    expect(byId.get(rejected!.id)).toMatchObject({ status: "failed", errorCode: "131026", providerMessageId: null });
    const [again] = await db.select().from(messages).where(eq(messages.id, unknown!.id));
    expect(again!.sentAt?.getTime()).toBe(sentAt.getTime());
  });
});
