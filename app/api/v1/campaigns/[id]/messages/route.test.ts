import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { createApiKey } from "@/lib/api-keys/service";
import type { CampaignMessagesBody } from "@/lib/logs/http";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { GET } from "./route";

let key: string;
let otherKey: string;
let campaignId: string;
let workspaceId: string;

async function keyFor(account: { workspaceId: string; id: string }) {
  return (await createApiKey(await getDb(), account.workspaceId, { userId: account.id, ip: null, userAgent: null }, { name: "CRM" })).key;
}

beforeAll(async () => {
  const account = await createTestAccount();
  workspaceId = account.workspaceId;
  key = await keyFor(account);
  otherKey = await keyFor(await createTestAccount());
  campaignId = (await insertCampaignRow(account.workspaceId)).id;
  await insertMessageRows(
    account.workspaceId,
    campaignId,
    Array.from({ length: 5 }, (_, i) => ({ phoneNumber: `+1415555010${i}`, createdAt: new Date(Date.UTC(2026, 10, 20, 10, i)) })),
  );
});

async function call(query: string, apiKey = key, id = campaignId) {
  const response = await GET(new Request(`http://localhost/api/v1/campaigns/${id}/messages?${query}`, { headers: { "x-api-key": apiKey } }), {
    params: Promise.resolve({ id }),
  });
  return { status: response.status, body: (await response.json()) as CampaignMessagesBody };
}

describe("GET /api/v1/campaigns/{id}/messages", () => {
  it("pages newest first with cursors and stays stable when messages arrive", async () => {
    const first = await call("limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((m) => m.phone)).toEqual(["+14155550104", "+14155550103"]);
    await insertMessageRows(workspaceId, campaignId, [{ phoneNumber: "+14155550199" }]);
    const second = await call(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((m) => m.phone)).toEqual(["+14155550102", "+14155550101"]);
    const third = await call(`limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body.data.map((m) => m.phone)).toEqual(["+14155550100"]);
    expect(third.body.nextCursor).toBeNull();
    const arrivals = await call(`cursor=${first.body.prevCursor}`);
    expect(arrivals.body.data.map((m) => m.phone)).toEqual(["+14155550199"]);
  });

  it("hides another workspace's campaign behind 404", async () => {
    const foreign = await call("", otherKey);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("+1415555");
  });

  it("rejects a tampered cursor with 422", async () => {
    const bad = await call("cursor=eyJ4IjoxfQ");
    expect(bad.status).toBe(422);
  });
});
