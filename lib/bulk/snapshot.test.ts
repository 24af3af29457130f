import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { queryRows } from "@/db/rows";
import { bulkSnapshotChunks, campaigns, contacts, messages } from "@/db/schema";
import { getCampaign, listCampaigns } from "@/lib/campaigns/service";
import { countLogStatuses } from "@/lib/logs/query";
import { insertCampaignRow } from "@/lib/testing/logs-factories";
import { runBulkHousekeeping } from "./housekeeping";
import { launchBulkCampaign } from "./launch";
import { cancelBulkCampaign } from "./lifecycle";
import { getBulkProgress } from "./progress";
import { writeSnapshotChunk, writeSnapshotChunksDue } from "./snapshot";
import { bulkMessages, bulkStatusCounts, createBulkFixture } from "./test-fixtures";
import { HELD_UNTIL } from "./tier";

async function pendingChunks(campaignId: string): Promise<number[]> {
  const db = await getDb();
  const rows = await db.select({ chunk: bulkSnapshotChunks.chunk }).from(bulkSnapshotChunks).where(eq(bulkSnapshotChunks.campaignId, campaignId)).orderBy(bulkSnapshotChunks.chunk);
  return rows.map((r) => r.chunk);
}

async function writeAll(campaignId: string): Promise<number> {
  const db = await getDb();
  let written = 0;
  for (;;) {
    const count = await writeSnapshotChunk(db, campaignId);
    if (count === null) return written;
    written += count;
  }
}

/** Every page's count of one campaign: progress, the campaigns list, the logs tiles. */
async function countsEverywhere(workspaceId: string, campaignId: string) {
  const db = await getDb();
  const progress = await getBulkProgress(db, workspaceId, campaignId);
  const listed = (await listCampaigns(db, workspaceId)).data.find((c) => c.id === campaignId)!;
  const logs = await countLogStatuses(db, { workspaceId, campaignId }, {});
  return { progress: { total: progress.total, ...progress.funnel }, list: listed.stats, logs: { total: logs.total, queued: logs.queued, sent: logs.sent, delivered: logs.delivered, read: logs.read, failed: logs.failed, skipped: logs.skipped, replied: logs.replied } };
}

describe("bulk snapshot in chunks", () => {
  it("the launch freezes the audience in chunks and writes the first; the rest are written in contact order, counted as queued meanwhile", async () => {
    const fixture = await createBulkFixture({ contacts: 7 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 3 });
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 3 });
    expect(await pendingChunks(fixture.campaignId)).toEqual([1, 2]);
    const expected = { total: 7, queued: 7, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0 };
    expect(await countsEverywhere(fixture.workspaceId, fixture.campaignId)).toEqual({ progress: expected, list: expected, logs: expected });

    // Sent the first chunk: not complete while chunks are pending.
    await db.update(messages).set({ status: "sent", sentAt: new Date() }).where(eq(messages.campaignId, fixture.campaignId));
    await runBulkHousekeeping(db, new Date());
    expect((await getCampaign(db, fixture.workspaceId, fixture.campaignId)).status).toBe("sending");
    const midway = { total: 7, queued: 4, sent: 3, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0 };
    expect(await countsEverywhere(fixture.workspaceId, fixture.campaignId)).toEqual({ progress: midway, list: midway, logs: midway });

    expect(await writeSnapshotChunksDue(db, { deadline: Date.now() + 10_000 })).toBeGreaterThanOrEqual(4);
    expect(await pendingChunks(fixture.campaignId)).toEqual([]);
    expect(await countsEverywhere(fixture.workspaceId, fixture.campaignId)).toEqual({ progress: midway, list: midway, logs: midway });
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored).toHaveLength(7);
    // One message per contact, ids in contact order.
    const byId = [...stored].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId.map((m) => m.contactId)).toEqual([...fixture.contactIds].sort());
    expect(new Set(stored.map((m) => m.contactId)).size).toBe(7);
    const phones = new Map((await db.select().from(contacts).where(eq(contacts.workspaceId, fixture.workspaceId))).map((c) => [c.id, c.phoneNumber]));
    for (const message of stored) expect(message.phoneNumber).toBe(phones.get(message.contactId!));
  });

  it("a chunk whose write dies leaves nothing and is written once later; writing again changes nothing", async () => {
    const fixture = await createBulkFixture({ contacts: 5 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2 });
    await expect(
      db.transaction(async (tx) => {
        expect(await writeSnapshotChunk(tx, fixture.campaignId)).toBe(2);
        throw new Error("process died");
      }),
    ).rejects.toThrow("process died");
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 2 });
    expect(await pendingChunks(fixture.campaignId)).toEqual([1, 2]);
    expect(await writeAll(fixture.campaignId)).toBe(3);
    expect(await writeAll(fixture.campaignId)).toBe(0);
    expect(await bulkStatusCounts(fixture.campaignId)).toEqual({ queued: 5 });
  });

  it("launching again over pending chunks and written rows snapshots nobody twice", async () => {
    const fixture = await createBulkFixture({ contacts: 5 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2 });
    // A resumed launch (back to draft with its rows and chunks kept), launched again.
    await db.update(campaigns).set({ status: "draft", launchedAt: null }).where(eq(campaigns.id, fixture.campaignId));
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2 });
    // Nobody new, so no chunk added; the launch wrote the lowest pending one.
    expect(await pendingChunks(fixture.campaignId)).toEqual([2]);
    await writeAll(fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored).toHaveLength(5);
    expect(new Set(stored.map((m) => m.contactId))).toEqual(new Set(fixture.contactIds));
  });

  it("a cancel skips the contacts of pending chunks too: counted as skipped at once, written as skipped (cancelled)", async () => {
    const fixture = await createBulkFixture({ contacts: 6 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2 });
    await cancelBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
    const cancelled = { total: 6, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 6, replied: 0 };
    expect(await countsEverywhere(fixture.workspaceId, fixture.campaignId)).toEqual({ progress: cancelled, list: cancelled, logs: cancelled });
    await writeAll(fixture.campaignId);
    expect(await countsEverywhere(fixture.workspaceId, fixture.campaignId)).toEqual({ progress: cancelled, list: cancelled, logs: cancelled });
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored.map((m) => [m.status, m.errorCode])).toEqual(Array.from({ length: 6 }, () => ["skipped", "cancelled"]));
  });

  it("keeps what the launch decided per contact (held by the tier, skipped for an empty variable) and leaves out contacts deleted since", async () => {
    const fixture = await createBulkFixture({
      contacts: 6,
      provider: "whatsapp",
      tier: "TIER_250",
      attributes: (i) => (i === 1 ? { city: "Porto" } : { code: `C${i}`, city: "Lisbon" }),
    });
    const db = await getDb();
    const [sender] = await queryRows<{ id: string }>(db, sql`select id from senders where workspace_id = ${fixture.workspaceId}`);
    // 247 recipients in the last 24 h (another campaign's): room for 3 of the 5 sendable contacts.
    const earlier = await insertCampaignRow(fixture.workspaceId, { name: "Earlier" });
    await queryRows(
      db,
      sql`insert into messages (id, workspace_id, campaign_id, sender_id, phone_number, template_name, template_language, rendered_text, status, source, sent_at)
        select 'msg_seed' || i || ${fixture.campaignId}, ${fixture.workspaceId}, ${earlier.id}, ${sender!.id}, '+1415555' || lpad(i::text, 4, '0'), 'promo', 'en_US', 'Hi', 'sent', 'trigger', now() - interval '1 hour'
        from generate_series(1, 247) i`,
    );
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 2, allowTierWait: true });
    const progress = await getBulkProgress(db, fixture.workspaceId, fixture.campaignId);
    expect(progress).toMatchObject({ total: 6, held: 2, funnel: { queued: 5, skipped: 1 } });
    const sorted = [...fixture.contactIds].sort();
    // Positions 4 and 5 of the sendable contacts (in contact order) are held; the last is deleted before its chunk is written.
    const sendable = sorted.filter((id) => id !== fixture.contactIds[1]);
    const deleted = sendable[4]!;
    await db.delete(contacts).where(eq(contacts.id, deleted));
    await writeAll(fixture.campaignId);
    const stored = await bulkMessages(fixture.campaignId);
    expect(stored.map((m) => m.contactId).sort()).toEqual(sorted.filter((id) => id !== deleted));
    const skipped = stored.filter((m) => m.status === "skipped");
    expect(skipped.map((m) => [m.contactId, m.errorCode])).toEqual([[fixture.contactIds[1], "variables_missing"]]);
    const held = stored.filter((m) => m.nextAttemptAt.getTime() === HELD_UNTIL.getTime());
    expect(held.map((m) => [m.contactId, m.errorCode])).toEqual([[sendable[3], "tier_wait"]]);
    expect((await getBulkProgress(db, fixture.workspaceId, fixture.campaignId)).held).toBe(1);
  });

  it("deleting the campaign deletes its pending chunks", async () => {
    const fixture = await createBulkFixture({ contacts: 3 });
    const db = await getDb();
    await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId, { snapshotChunkSize: 1 });
    expect(await pendingChunks(fixture.campaignId)).toEqual([1, 2]);
    await db.delete(messages).where(and(eq(messages.campaignId, fixture.campaignId)));
    await db.delete(campaigns).where(eq(campaigns.id, fixture.campaignId));
    expect(await pendingChunks(fixture.campaignId)).toEqual([]);
  });
});
