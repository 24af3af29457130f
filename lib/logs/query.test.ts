import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { decodeCursor, encodeCursor } from "@/db/cursor";
import { parseLogFilters, parseLogListParams } from "./filters";
import { exportBatchQuery } from "./export-query";
import { countLogStatuses, listLogMessages, phoneContains, type LogScope } from "./query";
import { queryRows } from "@/db/rows";

const at = (iso: string) => new Date(iso);

async function allIds(scope: LogScope, query: Record<string, string>, limit: number) {
  const db = await getDb();
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await listLogMessages(db, scope, parseLogListParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) }));
    seen.push(...page.data.map((m) => m.id));
    if (!page.nextCursor) return seen;
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

describe("campaign logs query", () => {
  let scope: LogScope;
  let otherScope: LogScope;
  let ids: Record<string, string>;

  beforeAll(async () => {
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    scope = { workspaceId: account.workspaceId, campaignId: campaign.id };
    const rows = await insertMessageRows(account.workspaceId, campaign.id, [
      { phoneNumber: "+14155550101", status: "queued", createdAt: at("2026-11-01T09:00:00Z") },
      { phoneNumber: "+14155550102", status: "sending", createdAt: at("2026-11-02T09:00:00Z") },
      { phoneNumber: "+14155550103", status: "sent", createdAt: at("2026-11-03T09:00:00Z") },
      { phoneNumber: "+447700900104", status: "delivered", createdAt: at("2026-11-04T09:00:00Z") },
      { phoneNumber: "+447700900105", status: "read", createdAt: at("2026-11-05T09:00:00Z") },
      { phoneNumber: "+447700900106", status: "failed", errorCode: "131026", errorReason: "Message undeliverable", createdAt: at("2026-11-05T23:59:59.999Z") },
    ]);
    ids = Object.fromEntries(rows.map((row) => [row.phoneNumber.slice(-3), row.id]));

    // Same numbers in another workspace and in another campaign of this workspace: never visible here.
    const other = await createTestAccount();
    const otherCampaign = await insertCampaignRow(other.workspaceId);
    otherScope = { workspaceId: other.workspaceId, campaignId: otherCampaign.id };
    await insertMessageRows(other.workspaceId, otherCampaign.id, [{ phoneNumber: "+14155550101", createdAt: at("2026-11-03T10:00:00Z") }]);
    const sibling = await insertCampaignRow(account.workspaceId, { name: "Sibling" });
    await insertMessageRows(account.workspaceId, sibling.id, [{ phoneNumber: "+14155550101", createdAt: at("2026-11-03T10:00:00Z") }]);
  });

  it("lists newest first with display statuses (sending shows as queued)", async () => {
    const page = await listLogMessages(await getDb(), scope, parseLogListParams({}));
    expect(page.data.map((m) => m.phone.slice(-3))).toEqual(["106", "105", "104", "103", "102", "101"]);
    expect(page.data.map((m) => (m.direction === "outbound" ? m.status : null))).toEqual(["failed", "read", "delivered", "sent", "queued", "queued"]);
    expect(page.data[0]).toMatchObject({ error: { code: "131026", reason: "Message undeliverable" }, createdAt: "2026-11-05T23:59:59.999Z" });
    expect(page.nextCursor).toBeNull();
    expect(page.hasNewer).toBe(false);
  });

  it("searches phones in a shape the messages' trigram index serves (a workspace's logs hold millions of rows)", async () => {
    const db = await getDb();
    // With sequential scans priced out, a predicate the index cannot answer would still plan a scan of the table.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<{ "QUERY PLAN": string }>(tx, sql`explain select id from messages where ${phoneContains(messages.phoneNumber, "7700900")}`);
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on messages_phone_trgm_idx/);
  });

  it("filters by status, phone digits and an inclusive day range", async () => {
    const db = await getDb();
    const ids = async (query: Record<string, string>) =>
      (await listLogMessages(db, scope, parseLogListParams(query))).data.map((m) => m.phone.slice(-3));
    expect(await ids({ status: "queued" })).toEqual(["102", "101"]);
    expect(await ids({ status: "failed,read" })).toEqual(["106", "105"]);
    expect(await ids({ phone: "+44 7700" })).toEqual(["106", "105", "104"]);
    expect(await ids({ phone: "0103" })).toEqual(["103"]);
    expect(await ids({ from: "2026-11-03", to: "2026-11-05" })).toEqual(["106", "105", "104", "103"]);
    expect(await ids({ to: "2026-11-01" })).toEqual(["101"]);
    expect(await ids({ from: "2026-11-04T09:00:00Z", to: "2026-11-05T09:00:00Z" })).toEqual(["104"]);
    expect(await ids({ status: "delivered", phone: "4155" })).toEqual([]);
  });

  it("counts the cumulative funnel under the same filters, ignoring the status filter", async () => {
    const db = await getDb();
    // sent counts sent, delivered and read; delivered counts delivered and read.
    expect(await countLogStatuses(db, scope, parseLogFilters({ status: "failed" }))).toEqual({
      queued: 2, sent: 3, delivered: 2, read: 1, failed: 1, skipped: 0, replied: 0, total: 6, tests: 0,
    });
    expect(await countLogStatuses(db, scope, parseLogFilters({ phone: "44" }))).toMatchObject({ queued: 0, failed: 1, total: 3 });
  });

  it("never shows another workspace's or another campaign's messages", async () => {
    const db = await getDb();
    const crossed = await listLogMessages(db, { workspaceId: otherScope.workspaceId, campaignId: scope.campaignId }, parseLogListParams({}));
    expect(crossed.data).toEqual([]);
    expect((await countLogStatuses(db, { workspaceId: otherScope.workspaceId, campaignId: scope.campaignId }, {})).total).toBe(0);
    const workspaceWide = await listLogMessages(db, { workspaceId: scope.workspaceId }, parseLogListParams({ phone: "4155550101" }));
    expect(workspaceWide.data).toHaveLength(2);
    expect(workspaceWide.data.every((m) => m.id !== undefined && m.campaignId !== otherScope.campaignId)).toBe(true);
  });

  it("pages with keyset cursors both ways", async () => {
    const db = await getDb();
    const first = await listLogMessages(db, scope, parseLogListParams({ limit: "4" }));
    expect(first.data.map((m) => m.id)).toEqual([ids["106"], ids["105"], ids["104"], ids["103"]]);
    expect(first.nextCursor).not.toBeNull();
    const second = await listLogMessages(db, scope, parseLogListParams({ limit: "4", cursor: first.nextCursor! }));
    expect(second.data.map((m) => m.id)).toEqual([ids["102"], ids["101"]]);
    expect(second.nextCursor).toBeNull();
    expect(second.hasNewer).toBe(true);
    const back = await listLogMessages(db, scope, parseLogListParams({ limit: "2", cursor: second.prevCursor! }));
    expect(back.data.map((m) => m.id)).toEqual([ids["104"], ids["103"]]);
    expect(back.hasNewer).toBe(true);
    expect(back.nextCursor).not.toBeNull();
  });

  it("rejects cursors it did not issue", () => {
    expect(() => parseLogListParams({ cursor: "not-a-cursor" })).toThrow(/cursor is not valid/);
    const forged = Buffer.from(JSON.stringify(["o", "2026-11-01", "msg_x"])).toString("base64url");
    expect(() => parseLogListParams({ cursor: forged })).toThrow();
    const token = encodeCursor({ createdAt: "2026-11-01T09:00:00.000000Z", id: "msg_x", direction: "older" });
    expect(decodeCursor(token)).toEqual({ createdAt: "2026-11-01T09:00:00.000000Z", id: "msg_x", direction: "older" });
  });

  it("rejects bad filters with field paths", () => {
    const issues = (query: Record<string, string>) => {
      try {
        parseLogListParams(query);
        return [];
      } catch (error) {
        return (error as { issues: { path: (string | number)[] }[] }).issues.map((i) => i.path.join("."));
      }
    };
    expect(issues({ status: "bounced" })).toEqual(["status"]);
    expect(issues({ from: "yesterday" })).toEqual(["from"]);
    expect(issues({ from: "2026-11-05", to: "2026-11-01" })).toEqual(["to"]);
    expect(issues({ phone: "abc" })).toEqual(["phone"]);
    expect(issues({ limit: "1000" })).toEqual(["limit"]);
    expect(issues({ limit: "0" })).toEqual(["limit"]);
  });
});

describe("keyset pagination stability", () => {
  it("keeps microsecond order and id tie-breaks exact", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    const rows = await insertMessageRows(account.workspaceId, campaign.id, Array.from({ length: 7 }, () => ({})));
    // Three rows inside one millisecond, two sharing the exact same instant.
    const stamps = ["2026-11-10 10:00:00.123100+00", "2026-11-10 10:00:00.123456+00", "2026-11-10 10:00:00.123456+00", "2026-11-10 10:00:00.123900+00"];
    for (const [index, stamp] of stamps.entries()) {
      await db.update(messages).set({ createdAt: sql`${stamp}::timestamptz` }).where(eq(messages.id, rows[index]!.id));
    }
    const expected = (await listLogMessages(db, { workspaceId: account.workspaceId, campaignId: campaign.id }, parseLogListParams({ limit: "100" }))).data.map((m) => m.id);
    expect(new Set(expected).size).toBe(7);
    expect(await allIds({ workspaceId: account.workspaceId, campaignId: campaign.id }, {}, 1)).toEqual(expected);
  });

  it("neither skips nor repeats rows while new messages arrive between pages", async () => {
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    const scope = { workspaceId: account.workspaceId, campaignId: campaign.id };
    const base = Date.parse("2026-11-12T08:00:00Z");
    const original = await insertMessageRows(
      account.workspaceId,
      campaign.id,
      Array.from({ length: 23 }, (_, i) => ({ createdAt: new Date(base + Math.floor(i / 3) * 1000) })),
    );
    const db = await getDb();
    const seen: string[] = [];
    let cursor: string | undefined;
    let arrivals = 0;
    for (;;) {
      const [page] = await Promise.all([
        listLogMessages(db, scope, parseLogListParams({ limit: "5", ...(cursor ? { cursor } : {}) })),
        // Concurrent writers: one message created now, one back-dated into the range being paged.
        insertMessageRows(account.workspaceId, campaign.id, [{}, { createdAt: new Date(base + 3_500) }]).then(() => (arrivals += 2)),
      ]);
      seen.push(...page.data.map((m) => m.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const originalIds = new Set(original.map((row) => row.id));
    const seenOriginal = seen.filter((id) => originalIds.has(id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seenOriginal).toHaveLength(23);
    expect(arrivals).toBeGreaterThan(0);

    // A poller holding the first page's prevCursor gets exactly the arrivals, newest first.
    const first = await listLogMessages(db, scope, parseLogListParams({ limit: "5" }));
    await insertMessageRows(account.workspaceId, campaign.id, [{ phoneNumber: "+14155550199" }]);
    const poll = await listLogMessages(db, scope, parseLogListParams({ limit: "5", cursor: first.prevCursor! }));
    expect(poll.data.map((m) => m.phone)).toEqual(["+14155550199"]);
    const again = await listLogMessages(db, scope, parseLogListParams({ limit: "5", cursor: poll.prevCursor! }));
    expect(again.data).toEqual([]);
    expect(again.prevCursor).toBe(poll.prevCursor);
  });
});

describe("query plans", () => {
  it("reads keyset batches straight off a (…, created_at, id) index, without sorting", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    await insertMessageRows(account.workspaceId, campaign.id, Array.from({ length: 20 }, () => ({})));
    const query = exportBatchQuery(
      db,
      { workspaceId: account.workspaceId, campaignId: campaign.id },
      {},
      [],
      { createdAt: "2030-01-01T00:00:00.000000Z", id: "msg_z" },
      10,
    );
    const plan = await db.transaction(async (tx) => {
      // Tiny tables (or statistics left by other test files) favour a sequential or bitmap scan plus a
      // sort; forbid both so the plan shows whether an index can deliver this order by itself.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const result = (await tx.execute(sql`explain ${query.getSQL()}`)) as unknown;
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
      return rows.map((row) => Object.values(row)[0]).join("\n");
    });
    expect(plan).toMatch(/Index Scan using messages_(campaign|workspace)_created_idx/);
    expect(plan).not.toMatch(/\bSort\b/);
  });
});
