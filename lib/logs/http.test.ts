import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { runRoute } from "@/lib/routing/route";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { campaignLogsCsvResponse, campaignMessagesResponse, type CampaignMessagesBody } from "./http";

let workspaceId: string;
let otherWorkspaceId: string;
let campaignId: string;

beforeAll(async () => {
  const account = await createTestAccount();
  workspaceId = account.workspaceId;
  otherWorkspaceId = (await createTestAccount()).workspaceId;
  campaignId = (await insertCampaignRow(workspaceId, { name: "Spring Sale, 2026" })).id;
  await insertMessageRows(workspaceId, campaignId, [
    { phoneNumber: "+14155550101", status: "delivered", createdAt: new Date("2026-11-20T10:00:00Z") },
    { phoneNumber: "+14155550102", status: "failed", errorCode: "131026", errorReason: "Message undeliverable", createdAt: new Date("2026-11-20T11:00:00Z") },
    { phoneNumber: "+14155550103", status: "queued", createdAt: new Date("2026-11-20T12:00:00Z") },
  ]);
});

async function call(kind: "messages" | "csv", query: string, workspace = workspaceId, campaign = campaignId) {
  const url = new URL(`http://app.test/api/campaigns/${campaign}/${kind === "csv" ? "logs.csv" : "messages"}?${query}`);
  const db = await getDb();
  return runRoute(new Request(url), () =>
    kind === "csv"
      ? campaignLogsCsvResponse(db, { workspaceId: workspace, campaignId: campaign, url })
      : campaignMessagesResponse(db, { workspaceId: workspace, campaignId: campaign, url }),
  );
}

describe("messages list response", () => {
  it("returns a page with cursors and, on request, the status counts", async () => {
    const response = await call("messages", "limit=2&include=counts");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as CampaignMessagesBody;
    expect(body.data.map((m) => m.phone)).toEqual(["+14155550103", "+14155550102"]);
    expect(body.data[1]).toEqual({
      id: expect.stringMatching(/^msg_/),
      campaignId,
      object: "message",
      direction: "outbound",
      phone: "+14155550102",
      template: { name: "order_update", language: "en_US" },
      text: "Hi Ada, your order shipped.",
      status: "failed",
      wamid: null,
      error: { code: "131026", reason: "Message undeliverable" },
      attempts: 0,
      nextAttemptAt: null,
      repliedAt: null,
      source: "trigger",
      createdAt: "2026-11-20T11:00:00.000Z",
      updatedAt: expect.any(String),
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
    });
    expect(body.counts).toEqual({ queued: 1, sent: 1, delivered: 1, read: 0, failed: 1, skipped: 0, replied: 0, total: 3, tests: 0 });
    const next = (await (await call("messages", `limit=2&cursor=${body.nextCursor}`)).json()) as CampaignMessagesBody;
    expect(next.data.map((m) => m.phone)).toEqual(["+14155550101"]);
    expect(next.nextCursor).toBeNull();
    expect(next.counts).toBeUndefined();
  });

  it("answers another workspace's campaign with 404, as for an unknown id", async () => {
    for (const response of [await call("messages", "", otherWorkspaceId), await call("messages", "", workspaceId, "cmp_doesnotexist")]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("answers bad query parameters with 422 and field errors", async () => {
    const response = await call("messages", "status=bounced&cursor=zzz&limit=abc");
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path).sort()).toEqual(["cursor", "limit", "status"]);
  });
});

describe("CSV export response", () => {
  it("streams a CSV attachment named after the campaign", async () => {
    const response = await call("csv", "status=failed,delivered");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="spring-sale-2026-logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true }).data;
    expect(rows.slice(1).map((row) => [row[2], row[5], row[7]])).toEqual([
      ["+14155550102", "failed", "Message undeliverable"],
      ["+14155550101", "delivered", ""],
    ]);
  });

  it("refuses another workspace's campaign and bad filters before streaming anything", async () => {
    expect((await call("csv", "", otherWorkspaceId)).status).toBe(404);
    const bad = await call("csv", "from=2026-11-21&to=2026-11-01");
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe("to");
  });
});
