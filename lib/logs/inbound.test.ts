import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertInboundRows, insertMessageRows } from "@/lib/testing/logs-factories";
import { csvLines } from "./csv";
import { parseLogFilters, parseLogListParams } from "./filters";
import { inboundExportBatchQuery, rawExportBatches } from "./export-query";
import { countLogStatuses, listLogMessages, type LogScope } from "./query";

const at = (iso: string) => new Date(iso);

async function fixture() {
  const account = await createTestAccount();
  const campaign = await insertCampaignRow(account.workspaceId);
  const scope: LogScope = { workspaceId: account.workspaceId, campaignId: campaign.id };
  const same = at("2026-11-03T09:00:00Z");
  const sent = await insertMessageRows(account.workspaceId, campaign.id, [
    { phoneNumber: "+14155550101", status: "delivered", createdAt: at("2026-11-01T09:00:00Z") },
    { phoneNumber: "+14155550102", status: "read", createdAt: same },
    { phoneNumber: "+14155550103", status: "sent", createdAt: same },
    { phoneNumber: "+14155550104", status: "failed", errorCode: "131026", errorReason: "Message undeliverable", createdAt: at("2026-11-05T09:00:00Z") },
  ]);
  const replies = await insertInboundRows(account.workspaceId, campaign.id, [
    { phoneNumber: "+14155550101", text: "STOP", replyToMessageId: sent[0]!.id, createdAt: at("2026-11-02T09:00:00Z") },
    { phoneNumber: "+14155550102", kind: "button", text: "Track order", payload: "TRACK", replyToMessageId: sent[1]!.id, createdAt: same },
    { phoneNumber: "+14155550103", kind: "media", text: null, media: { id: "m1", mimeType: "image/jpeg", caption: null, filename: null, kind: "image" }, createdAt: at("2026-11-06T09:00:00Z") },
  ]);
  // A reply to another campaign and one answering nothing: never in this campaign's logs.
  const other = await insertCampaignRow(account.workspaceId, { name: "Other" });
  await insertInboundRows(account.workspaceId, other.id, [{ createdAt: at("2026-11-04T09:00:00Z") }]);
  await insertInboundRows(account.workspaceId, null, [{ createdAt: at("2026-11-04T09:00:00Z") }]);
  return { scope, sent, replies };
}

async function walk(scope: LogScope, query: Record<string, string>, limit: number) {
  const db = await getDb();
  const seen: { id: string; direction: string }[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard++) {
    const page = await listLogMessages(db, scope, parseLogListParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) }));
    seen.push(...page.data.map((m) => ({ id: m.id, direction: m.direction })));
    if (!page.nextCursor) return { seen, page };
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

describe("campaign logs with replies", () => {
  it("lists the campaign's replies beside its messages, newest first, under one cursor in both reading directions", async () => {
    const { scope, sent, replies } = await fixture();
    const db = await getDb();
    const expected = [replies[2]!.id, sent[3]!.id, ...[sent[1]!.id, sent[2]!.id, replies[1]!.id], replies[0]!.id, sent[0]!.id];
    const full = await listLogMessages(db, scope, parseLogListParams({ limit: "100" }));
    expect(full.data).toHaveLength(7);
    expect(full.data[0]).toMatchObject({ id: replies[2]!.id, direction: "inbound", kind: "media", media: { mimeType: "image/jpeg" } });
    expect(full.data.find((m) => m.id === replies[1]!.id)).toMatchObject({ direction: "inbound", text: "Track order", payload: "TRACK", replyToMessageId: sent[1]!.id });
    expect(full.data.find((m) => m.id === sent[0]!.id)).toMatchObject({ direction: "outbound", status: "delivered" });
    // The three rows at the same microsecond: ordered by id, replies (inm_) before messages (msg_) reading newest first.
    const ids = full.data.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual(expected.slice(0, 2));
    expect(ids.slice(5)).toEqual(expected.slice(5));
    expect(new Set(ids.slice(2, 5))).toEqual(new Set(expected.slice(2, 5)));

    for (const limit of [1, 2, 3]) expect((await walk(scope, {}, limit)).seen.map((m) => m.id)).toEqual(ids);

    // Reading newer from the oldest page gives the same rows back, newest first within each page.
    const back: string[] = [];
    const oldest = await listLogMessages(db, scope, parseLogListParams({ limit: "2", cursor: (await listLogMessages(db, scope, parseLogListParams({ limit: "5" }))).nextCursor! }));
    back.push(...oldest.data.map((m) => m.id));
    let prev = oldest.prevCursor;
    for (let guard = 0; prev && guard < 10; guard++) {
      const page = await listLogMessages(db, scope, parseLogListParams({ limit: "2", cursor: prev }));
      back.unshift(...page.data.map((m) => m.id));
      prev = page.hasNewer ? page.prevCursor : null;
    }
    expect(back).toEqual(ids);
  });

  it("direction and status filters; counts stay those of messages sent", async () => {
    const { scope, sent, replies } = await fixture();
    const db = await getDb();
    expect((await walk(scope, { direction: "inbound" }, 2)).seen.map((m) => m.id)).toEqual([replies[2]!.id, replies[1]!.id, replies[0]!.id]);
    expect((await walk(scope, { direction: "outbound" }, 2)).seen.every((m) => m.direction === "outbound")).toBe(true);
    expect((await walk(scope, { status: "delivered,read" }, 5)).seen.every((m) => m.direction === "outbound")).toBe(true);
    expect((await walk(scope, { phone: "0101" }, 5)).seen.map((m) => m.id)).toEqual([replies[0]!.id, sent[0]!.id]);
    expect((await walk(scope, { from: "2026-11-06" }, 5)).seen.map((m) => m.id)).toEqual([replies[2]!.id]);
    // Without a campaign (the workspace's logs) replies are not listed.
    expect((await walk({ workspaceId: scope.workspaceId }, {}, 10)).seen.every((m) => m.direction === "outbound")).toBe(true);
    const counts = await countLogStatuses(db, scope, parseLogFilters({}));
    expect(counts.total).toBe(4);
  });

  it("exports replies as inbound rows with the direction column", async () => {
    const { scope, replies } = await fixture();
    const db = await getDb();
    let csv = "";
    for await (const batch of rawExportBatches(db, scope, parseLogFilters({}), [], 2)) csv += csvLines(batch);
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe(`2026-11-06T09:00:00.000Z,${replies[2]!.id},"+14155550103",,"image (image/jpeg)",received,,,,,,,inbound,reply,`);
    expect(lines.find((line) => line.includes(replies[1]!.id))).toBe(`2026-11-03T09:00:00.000Z,${replies[1]!.id},"+14155550102",,"Button: Track order",received,,,,,,,inbound,reply,`);
    expect(lines.filter((line) => /,outbound,[a-z]+,$/.test(line))).toHaveLength(4);
    let inboundOnly = "";
    for await (const batch of rawExportBatches(db, scope, parseLogFilters({ direction: "inbound" }), [], 10)) inboundOnly += csvLines(batch);
    expect(inboundOnly.trim().split("\r\n")).toHaveLength(3);
  });
});

describe("replies query plan", () => {
  it("reads a campaign's replies straight off its (campaign, created_at, id) index, without sorting", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    await insertInboundRows(account.workspaceId, campaign.id, Array.from({ length: 20 }, () => ({})));
    const query = inboundExportBatchQuery(db, { workspaceId: account.workspaceId, campaignId: campaign.id }, {}, [], { createdAt: "2030-01-01T00:00:00.000000Z", id: "inm_z" }, 10);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const result = (await tx.execute(sql`explain ${query.getSQL()}`)) as unknown;
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
      return rows.map((row) => Object.values(row)[0]).join("\n");
    });
    expect(plan).toMatch(/Index Scan using inbound_messages_campaign_created_idx/);
    expect(plan).not.toMatch(/\bSort\b/);
  });
});
