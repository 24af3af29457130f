import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { launchBulkCampaign } from "@/lib/bulk/launch";
import { getBulkProgress } from "@/lib/bulk/progress";
import { bulkMessages, createBulkFixture } from "@/lib/bulk/test-fixtures";
import type { InboundMessage } from "@/lib/channels/types";
import { randomBase62 } from "@/lib/crypto/random";
import { recordInboundMessages } from "@/lib/inbound/record";
import { logsCsvStream } from "@/lib/logs/csv";
import { parseLogFilters, parseLogListParams } from "@/lib/logs/filters";
import { logsLinks } from "@/lib/logs/links";
import { countLogStatuses, listLogMessages } from "@/lib/logs/query";
import { listCampaigns } from "./service";
import { countFunnel, countFunnelsByCampaign } from "./funnel";

const HOUR = 3_600_000;

function reply(from: string, at: Date, text = "Is it in blue?"): InboundMessage {
  return {
    providerMessageId: `wamid.IN${randomBase62(16)}`,
    from,
    profileName: null,
    at,
    kind: "text",
    text,
    payload: null,
    media: null,
    location: null,
    reaction: null,
    contextProviderMessageId: null,
  };
}

async function csvOf(stream: ReadableStream<Uint8Array>): Promise<string[][]> {
  const text = await new Response(stream).text();
  return text
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
}

/**
 * A bulk campaign of four contacts, all delivered an hour before the replies: the first contact
 * replies twice, the second once; the third reads but never replies; the fourth failed.
 */
async function campaignWithReplies() {
  const db = await getDb();
  const fixture = await createBulkFixture({ contacts: 4 });
  await launchBulkCampaign(db, fixture.workspaceId, fixture.campaignId);
  const now = new Date("2026-11-20T12:00:00Z");
  const sentAt = new Date(now.getTime() - HOUR);
  const rows = (await bulkMessages(fixture.campaignId)).sort((a, b) => a.phoneNumber.localeCompare(b.phoneNumber));
  expect(rows).toHaveLength(4);
  const statuses = ["delivered", "read", "read", "failed"] as const;
  for (const [i, row] of rows.entries()) {
    await db
      .update(messages)
      .set({ status: statuses[i], sentAt: statuses[i] === "failed" ? null : sentAt, providerMessageId: `wamid.${randomBase62(12)}` })
      .where(eq(messages.id, row.id));
  }
  const [senderRow] = await db.select({ senderId: messages.senderId }).from(messages).where(eq(messages.id, rows[0]!.id));
  const scope = { workspaceId: fixture.workspaceId, senderId: senderRow!.senderId! };
  await recordInboundMessages(db, scope, [reply(rows[0]!.phoneNumber, now), reply(rows[1]!.phoneNumber, new Date(now.getTime() + 60_000), "Where is my parcel?")]);
  await recordInboundMessages(db, scope, [reply(rows[0]!.phoneNumber, new Date(now.getTime() + 120_000), "Thanks")]);
  return { db, ...fixture, rows, now };
}

describe("the replied step, the same number everywhere", () => {
  it("counts each replied message once on the campaign page, the list, bulk progress, the logs tiles and the API's counts", async () => {
    const { db, workspaceId, campaignId, rows } = await campaignWithReplies();
    const expected = { queued: 0, sent: 3, delivered: 3, read: 2, failed: 1, skipped: 0, replied: 2 };

    expect(await countFunnel(db, { workspaceId, campaignIds: [campaignId] })).toEqual(expected);
    expect(await countFunnel(db, { workspaceId })).toEqual(expected);
    expect((await countFunnelsByCampaign(db, { workspaceId, campaignIds: [campaignId] })).get(campaignId)).toEqual(expected);
    const listed = (await listCampaigns(db, workspaceId)).data.find((c) => c.id === campaignId)!;
    expect(listed.stats).toEqual({ ...expected, total: 4 });
    const progress = await getBulkProgress(db, workspaceId, campaignId);
    expect(progress.funnel).toEqual(expected);
    const logs = await countLogStatuses(db, { workspaceId, campaignId }, {});
    expect(logs).toEqual({ ...expected, total: 4, tests: 0 });
    // The Replied tile is a selection like a status tile: its own filter leaves the counts as they are.
    expect(await countLogStatuses(db, { workspaceId, campaignId }, parseLogFilters({ replied: "true" }))).toEqual(logs);
    // A phone filter narrows the replied count as it narrows every other.
    for (const [i, replied] of [[0, 1], [2, 0]] as const) {
      const narrowed = await countLogStatuses(db, { workspaceId, campaignId }, parseLogFilters({ phone: rows[i]!.phoneNumber }));
      expect(narrowed).toMatchObject({ total: 1, replied });
    }
  });

  it("a test send the contact replied to stays out of the count", async () => {
    const { db, workspaceId, campaignId, rows } = await campaignWithReplies();
    await db.update(messages).set({ source: "test" }).where(eq(messages.id, rows[0]!.id));
    expect((await countFunnel(db, { workspaceId, campaignIds: [campaignId] })).replied).toBe(1);
    expect((await countLogStatuses(db, { workspaceId, campaignId }, {})).replied).toBe(1);
  });

  it("the logs' Replied filter lists the messages the tile counts, with their repliedAt; replies stay out of it", async () => {
    const { db, workspaceId, campaignId, rows, now } = await campaignWithReplies();
    const scope = { workspaceId, campaignId };
    const replied = await listLogMessages(db, scope, parseLogListParams({ replied: "true" }));
    expect(replied.data.map((m) => m.id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
    expect(replied.data.every((m) => m.direction === "outbound")).toBe(true);
    const byId = new Map(replied.data.map((m) => [m.id, m]));
    expect(byId.get(rows[0]!.id)).toMatchObject({ repliedAt: now.toISOString() });
    expect(byId.get(rows[1]!.id)).toMatchObject({ repliedAt: new Date(now.getTime() + 60_000).toISOString() });

    const notReplied = await listLogMessages(db, scope, parseLogListParams({ replied: "false" }));
    expect(notReplied.data.map((m) => m.id).sort()).toEqual([rows[2]!.id, rows[3]!.id].sort());
    // Combined with a status: read and replied.
    const readAndReplied = await listLogMessages(db, scope, parseLogListParams({ replied: "true", status: "read" }));
    expect(readAndReplied.data.map((m) => m.id)).toEqual([rows[1]!.id]);

    // The Replied tile's link selects exactly that, and a status tile drops it.
    const links = logsLinks(`/campaigns/${campaignId}/logs`, { status: "read", replied: "true" });
    expect(new URL(links.repliedHref, "http://x").searchParams.toString()).toBe("replied=true");
    expect(new URL(links.statusHrefs.failed, "http://x").searchParams.get("replied")).toBeNull();

    // The Replies tab: the campaign's inbound messages (newest stored first; one batch shares a time).
    const inbound = await listLogMessages(db, scope, parseLogListParams({ direction: "inbound" }));
    const texts = inbound.data.map((m) => (m.direction === "inbound" ? m.text : null));
    expect(texts[0]).toBe("Thanks");
    expect(texts.slice(1).sort()).toEqual(["Is it in blue?", "Where is my parcel?"]);
    expect(() => parseLogFilters({ replied: "yes" })).toThrow(/replied=true/);
  });

  it("exports replied_at beside read_at; replies and unanswered messages leave it empty", async () => {
    const { db, workspaceId, campaignId, rows, now } = await campaignWithReplies();
    const [header, ...lines] = await csvOf(await logsCsvStream(db, { workspaceId, campaignId }, { excludeTests: true }));
    const column = header!.indexOf("replied_at");
    expect(header![column - 1]).toBe("read_at");
    const cell = (id: string) => lines.find((line) => line[1] === id)![column];
    expect(cell(rows[0]!.id)).toBe(now.toISOString());
    expect(cell(rows[2]!.id)).toBe("");
    expect(cell(rows[3]!.id)).toBe("");
    const replyLines = lines.filter((line) => line.includes("inbound"));
    expect(replyLines).toHaveLength(3);
    for (const line of replyLines) expect(line[column]).toBe("");
    // Only the replied ones, through the filter.
    const [, ...repliedOnly] = await csvOf(await logsCsvStream(db, { workspaceId, campaignId }, { ...parseLogFilters({ replied: "true" }), excludeTests: true }));
    expect(repliedOnly.map((line) => line[1]).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
  });
});
