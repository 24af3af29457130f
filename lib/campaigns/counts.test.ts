import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, type Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns, messages, type MessageStatus } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { countsByCampaign, countsByDay, countsTogether, foldCountDeltas, type StatusCounts } from "./counts";

/** What counting the rows gives: the numbers the maintained counts must equal at every moment. */
async function countedFromRows(db: Executor, workspaceId: string): Promise<Map<string, StatusCounts>> {
  const rows = await queryRows<{ campaign_id: string; status: MessageStatus; messages: number; replied: number }>(
    db,
    sql`select campaign_id, status, count(*)::int as messages, count(replied_at)::int as replied from messages
      where workspace_id = ${workspaceId} and campaign_id is not null and source in ('trigger', 'bulk')
      group by campaign_id, status`,
  );
  const result = new Map<string, StatusCounts>();
  for (const row of rows) {
    const entry = result.get(row.campaign_id) ?? { counts: {}, replied: 0 };
    entry.counts[row.status] = row.messages;
    entry.replied += row.replied;
    result.set(row.campaign_id, entry);
  }
  return result;
}

/** Maintained counts with the zero entries (a status whose messages all moved on) left out. */
async function maintained(db: Executor, workspaceId: string): Promise<Map<string, StatusCounts>> {
  const result = new Map<string, StatusCounts>();
  for (const [campaignId, entry] of await countsByCampaign(db, workspaceId)) {
    const counts = Object.fromEntries(Object.entries(entry.counts).filter(([, n]) => n !== 0));
    if (Object.keys(counts).length > 0 || entry.replied !== 0) result.set(campaignId, { counts, replied: entry.replied });
  }
  return result;
}

async function expectExact(db: Executor, workspaceId: string) {
  expect(await maintained(db, workspaceId)).toEqual(await countedFromRows(db, workspaceId));
}

describe("maintained campaign counts", () => {
  it("equal counting the rows after every kind of write, folded or not", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const a = await insertCampaignRow(workspaceId, { name: "A" });
    const b = await insertCampaignRow(workspaceId, { name: "B" });
    const rows = await insertMessageRows(workspaceId, a.id, [
      { status: "queued", createdAt: new Date("2026-11-20T09:00:00Z") },
      { status: "queued", createdAt: new Date("2026-11-20T23:59:59Z") },
      { status: "sent", createdAt: new Date("2026-11-21T00:00:00Z") },
      { status: "failed", createdAt: new Date("2026-11-21T08:00:00Z") },
    ]);
    await insertMessageRows(workspaceId, b.id, [{ status: "delivered" }, { status: "queued" }]);
    await expectExact(db, workspaceId);

    // A claim, a send, a status webhook: one statement each over several rows.
    await db.update(messages).set({ status: "sending" }).where(and(eq(messages.campaignId, a.id), eq(messages.status, "queued")));
    await expectExact(db, workspaceId);
    await db.update(messages).set({ status: "sent" }).where(eq(messages.id, rows[0]!.id));
    await db.update(messages).set({ status: "read", repliedAt: new Date() }).where(eq(messages.id, rows[2]!.id));
    // An update that changes nothing counted (a lease) writes no delta.
    const before = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaign_message_count_deltas where workspace_id = ${workspaceId}`);
    await db.update(messages).set({ attempts: 3 }).where(eq(messages.campaignId, a.id));
    const after = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaign_message_count_deltas where workspace_id = ${workspaceId}`);
    expect(after[0]!.n).toBe(before[0]!.n);
    await expectExact(db, workspaceId);

    // A test send is never counted, also when a row becomes one.
    await db.update(messages).set({ source: "test" }).where(eq(messages.id, rows[3]!.id));
    await expectExact(db, workspaceId);

    expect(await foldCountDeltas(db)).toBeGreaterThan(0);
    await expectExact(db, workspaceId);
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaign_message_count_deltas where workspace_id = ${workspaceId}`))[0]!.n).toBe(0);

    // Further writes after a fold land as deltas again; a delete subtracts.
    await db.update(messages).set({ status: "delivered" }).where(eq(messages.id, rows[0]!.id));
    await db.delete(messages).where(eq(messages.id, rows[1]!.id));
    await expectExact(db, workspaceId);

    // Per day of creation (UTC), as the campaign page's chart reads them.
    const days = await countsByDay(db, workspaceId, [a.id], "2026-11-19", "2026-11-22");
    expect([...days.keys()].sort()).toEqual(["2026-11-20", "2026-11-21"]);
    const together = await countsTogether(db, workspaceId);
    expect(Object.values(together.counts).reduce((sum, n) => sum + n, 0)).toBe(4);

    // A deleted campaign's messages go with it; its unfolded deltas are dropped by the next fold.
    await db.delete(campaigns).where(eq(campaigns.id, b.id));
    await foldCountDeltas(db);
    await expectExact(db, workspaceId);
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaign_message_counts where campaign_id = ${b.id}`))[0]!.n).toBe(0);
  });

  it("keep another workspace's messages out", async () => {
    const db = await getDb();
    const mine = await createTestAccount();
    const theirs = await createTestAccount();
    const campaign = await insertCampaignRow(theirs.workspaceId, { name: "Theirs" });
    await insertMessageRows(theirs.workspaceId, campaign.id, [{ status: "sent" }]);
    expect((await countsByCampaign(db, mine.workspaceId)).size).toBe(0);
    expect((await countsByCampaign(db, mine.workspaceId, [campaign.id])).size).toBe(0);
    expect((await countsByCampaign(db, theirs.workspaceId, [campaign.id])).get(campaign.id)?.counts.sent).toBe(1);
  });

  it("stay exact when two folds and new writes run at once", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const campaign = await insertCampaignRow(workspaceId, { name: "Busy" });
    const rows = await insertMessageRows(workspaceId, campaign.id, Array.from({ length: 40 }, () => ({ status: "queued" as const })));
    await Promise.all([
      foldCountDeltas(db, 3),
      ...rows.slice(0, 20).map((row) => db.update(messages).set({ status: "sent" }).where(eq(messages.id, row.id))),
      foldCountDeltas(db, 5),
      db.update(messages).set({ status: "failed" }).where(inArray(messages.id, rows.slice(20, 30).map((r) => r.id))),
      foldCountDeltas(db),
    ]);
    await expectExact(db, workspaceId);
    await foldCountDeltas(db);
    await expectExact(db, workspaceId);
  });
});
