import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { listCampaigns } from "@/lib/campaigns/service";
import { parseLogFilters, parseLogListParams } from "@/lib/logs/filters";
import { countLogStatuses, listLogMessages } from "@/lib/logs/query";
import { logsLinks } from "@/lib/logs/links";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { countFunnel, countFunnelsByCampaign, messagesPerDay } from "./funnel";

const at = (iso: string) => new Date(iso);

describe("one cumulative funnel on every page", () => {
  let workspaceId: string;
  let campaignId: string;
  let otherCampaignId: string;

  beforeAll(async () => {
    const db = await getDb();
    ({ workspaceId } = await createTestAccount());
    const campaign = await insertCampaignRow(workspaceId, { name: "Five messages" });
    campaignId = campaign.id;
    // The reported case: three messages read, two failed.
    await insertMessageRows(workspaceId, campaignId, [
      { phoneNumber: "+14155550101", status: "read", createdAt: at("2026-11-20T09:00:00Z") },
      { phoneNumber: "+14155550102", status: "read", createdAt: at("2026-11-20T10:00:00Z") },
      { phoneNumber: "+14155550103", status: "read", createdAt: at("2026-11-22T09:00:00Z") },
      { phoneNumber: "+14155550104", status: "failed", errorCode: "131026", errorReason: "Undeliverable.", createdAt: at("2026-11-22T09:30:00Z") },
      { phoneNumber: "+14155550105", status: "failed", errorCode: "131026", errorReason: "Undeliverable.", createdAt: at("2026-11-22T09:40:00Z") },
    ]);
    // A test send is listed in the logs but counted nowhere.
    const [test] = await insertMessageRows(workspaceId, campaignId, [{ phoneNumber: "+14155550199", status: "delivered", createdAt: at("2026-11-22T11:00:00Z") }]);
    await db.update(messages).set({ source: "test" }).where(eq(messages.id, test!.id));
    const other = await insertCampaignRow(workspaceId, { name: "Other" });
    otherCampaignId = other.id;
    await insertMessageRows(workspaceId, otherCampaignId, [{ status: "delivered" }, { status: "queued" }]);
  });

  const expected = { queued: 0, sent: 3, delivered: 3, read: 3, failed: 2, skipped: 0, replied: 0 };

  it("gives the campaigns list, the campaign page and the logs the same numbers", async () => {
    const db = await getDb();
    const list = await listCampaigns(db, workspaceId, { limit: 100 });
    const listed = list.data.find((c) => c.id === campaignId)!;
    expect(listed.stats).toEqual({ ...expected, total: 5 });

    const campaignPage = await countFunnel(db, { workspaceId, campaignIds: [campaignId] });
    expect(campaignPage).toEqual(expected);

    const logs = await countLogStatuses(db, { workspaceId, campaignId }, {});
    expect(logs).toEqual({ ...expected, total: 5, tests: 1 });
    // The status filter does not change the counts, so a selected tile keeps its number.
    expect(await countLogStatuses(db, { workspaceId, campaignId }, parseLogFilters({ status: "failed" }))).toEqual(logs);

    const byCampaign = await countFunnelsByCampaign(db, { workspaceId, campaignIds: [campaignId, otherCampaignId] });
    expect(byCampaign.get(campaignId)).toEqual(expected);
    expect(byCampaign.get(otherCampaignId)).toEqual({ queued: 1, sent: 1, delivered: 1, read: 0, failed: 0, skipped: 0, replied: 0 });
    expect(await countFunnel(db, { workspaceId })).toEqual({ queued: 1, sent: 4, delivered: 4, read: 3, failed: 2, skipped: 0, replied: 0 });
  });

  it("each tile lists as many messages as it counts (the test send aside)", async () => {
    const db = await getDb();
    const links = logsLinks(`/campaigns/${campaignId}/logs`, {});
    const counts = await countLogStatuses(db, { workspaceId, campaignId }, {});
    for (const step of ["sent", "delivered", "read", "failed"] as const) {
      const status = new URL(links.statusHrefs[step], "http://x").searchParams.get("status")!;
      const page = await listLogMessages(db, { workspaceId, campaignId }, parseLogListParams({ status }));
      const counted = page.data.filter((m) => m.direction === "outbound" && m.source !== "test");
      expect(counted, step).toHaveLength(counts[step]);
    }
  });

  it("narrows with the logs' phone and date filters", async () => {
    const db = await getDb();
    expect(await countLogStatuses(db, { workspaceId, campaignId }, parseLogFilters({ from: "2026-11-22" }))).toEqual({
      queued: 0, sent: 1, delivered: 1, read: 1, failed: 2, skipped: 0, replied: 0, total: 3, tests: 1,
    });
    expect(await countLogStatuses(db, { workspaceId, campaignId }, parseLogFilters({ phone: "0101" }))).toMatchObject({ sent: 1, failed: 0, total: 1, tests: 0 });
  });

  it("counts messages per UTC day for the chart, empty days included", async () => {
    const db = await getDb();
    const days = await messagesPerDay(db, { workspaceId, campaignIds: [campaignId] }, { days: 7, now: at("2026-11-23T15:00:00Z") });
    expect(days.map((d) => d.day)).toEqual(["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"]);
    expect(days.find((d) => d.day === "2026-11-20")).toEqual({ day: "2026-11-20", total: 2, sent: 2, failed: 0 });
    expect(days.find((d) => d.day === "2026-11-22")).toEqual({ day: "2026-11-22", total: 3, sent: 1, failed: 2 });
    expect(days.reduce((sum, d) => sum + d.total, 0)).toBe(5);
  });

  it("never counts another workspace's messages", async () => {
    const db = await getDb();
    const other = await createTestAccount();
    expect(await countFunnel(db, { workspaceId: other.workspaceId, campaignIds: [campaignId] })).toEqual({ ...expected, sent: 0, delivered: 0, read: 0, failed: 0 });
    expect((await countLogStatuses(db, { workspaceId: other.workspaceId, campaignId }, {})).total).toBe(0);
    const rows = await db.select({ id: messages.id }).from(messages).where(inArray(messages.campaignId, [campaignId]));
    expect(rows).toHaveLength(6);
  });
});
