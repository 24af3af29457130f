import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { campaigns, contacts, messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createApiKey } from "@/lib/api-keys/service";
import { LOG_CSV_COLUMNS } from "@/lib/logs/csv";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { GET, POST } from "./route";

let key: string;
let otherKey: string;
let campaignId: string;

async function keyFor(workspaceId: string, userId: string) {
  return (await createApiKey(await getDb(), workspaceId, { userId, ip: null, userAgent: null }, { name: "Export job" })).key;
}

beforeAll(async () => {
  const account = await createTestAccount();
  key = await keyFor(account.workspaceId, account.id);
  const other = await createTestAccount();
  otherKey = await keyFor(other.workspaceId, other.id);
  campaignId = (await insertCampaignRow(account.workspaceId, { name: "Back in stock" })).id;
  await insertMessageRows(account.workspaceId, campaignId, [
    { phoneNumber: "+14155550101", status: "delivered", renderedText: "Hi, \"Ada\"", createdAt: new Date("2026-11-20T10:00:00Z") },
    { phoneNumber: "+14155550102", status: "failed", errorCode: "131026", errorReason: "=cmd|' /C calc'!A0", createdAt: new Date("2026-11-21T10:00:00Z") },
    { phoneNumber: "+14155550103", status: "delivered", source: "test", createdAt: new Date("2026-11-21T11:00:00Z") },
  ]);
});

function call(query: string, headers: Record<string, string>, id = campaignId) {
  return GET(new Request(`http://localhost/api/v1/campaigns/${id}/logs.csv?${query}`, { headers }), { params: Promise.resolve({ id }) });
}

describe("GET /api/v1/campaigns/{id}/logs.csv", () => {
  it("streams the filtered export for a valid key", async () => {
    const response = await call("status=failed", { authorization: `Bearer ${key}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(response.headers.get("content-disposition")).toMatch(/filename="back-in-stock-logs-\d{4}-\d{2}-\d{2}\.csv"/);
    const [header, ...rows] = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true }).data;
    expect(header).toEqual([...LOG_CSV_COLUMNS, "journey_step"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(2, 8)).toEqual(["+14155550102", "order_update (en_US)", "Hi Ada, your order shipped.", "failed", "131026", "'=cmd|' /C calc'!A0"]);
  });

  it("applies the date range as query parameters", async () => {
    const response = await call("from=2026-11-20&to=2026-11-20", { "x-api-key": key });
    const rows = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true }).data.slice(1);
    expect(rows.map((row) => row[2])).toEqual(["+14155550101"]);
    expect(rows[0]![4]).toBe('Hi, "Ada"');
  });

  it("leaves test sends out unless include_tests=true, and names each row's source", async () => {
    const rowsOf = async (query: string) => Papa.parse<string[]>(await (await call(query, { "x-api-key": key })).text(), { skipEmptyLines: true }).data.slice(1);
    const source = LOG_CSV_COLUMNS.indexOf("source");
    expect(source).toBe(LOG_CSV_COLUMNS.length - 1);
    const counted = await rowsOf("");
    expect(counted.map((row) => [row[2], row[source]])).toEqual([
      ["+14155550102", "trigger"],
      ["+14155550101", "trigger"],
    ]);
    expect(await rowsOf("include_tests=false")).toEqual(counted);
    const all = await rowsOf("include_tests=true");
    expect(all.map((row) => [row[2], row[source]])).toEqual([
      ["+14155550103", "test"],
      ["+14155550102", "trigger"],
      ["+14155550101", "trigger"],
    ]);
    const bad = await call("include_tests=yes", { "x-api-key": key });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("include_tests=true");
  });

  it("answers 401 without a key, 404 for another workspace's campaign, 422 for bad filters, 405 for POST", async () => {
    const anonymous = await call("", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
    const foreign = await call("", { "x-api-key": otherKey });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("+1415555");
    expect((await call("", { "x-api-key": key }, "cmp_unknown")).status).toBe(404);
    expect((await call("status=lost", { "x-api-key": key })).status).toBe(422);
    const post = await POST(new Request(`http://localhost/api/v1/campaigns/${campaignId}/logs.csv`, { method: "POST" }), { params: Promise.resolve({ id: campaignId }) });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("adds one column per mapped contact attribute with attributes=true, and refuses other values", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const ownKey = await keyFor(account.workspaceId, account.id);
    const campaign = await insertCampaignRow(account.workspaceId, { name: "With attributes" });
    await db
      .update(campaigns)
      .set({
        triggerConfig: { phoneField: "phone", fields: [{ field: "first_name", attribute: "name", type: "string", required: false }, { field: "city", attribute: "city", type: "string", required: false }] },
        messageConfig: { variables: [{ key: "1", attribute: "plan", fallback: "basic" }] },
      })
      .where(eq(campaigns.id, campaign.id));
    const contactId = newId("ctc");
    await db.insert(contacts).values({ id: contactId, workspaceId: account.workspaceId, phoneNumber: "+14155550177", name: "Ada", attributes: { city: "=Paris", plan: "gold" } });
    await db.insert(messages).values({
      id: newId("msg"),
      workspaceId: account.workspaceId,
      campaignId: campaign.id,
      contactId,
      phoneNumber: "+14155550177",
      templateName: "order_update",
      templateLanguage: "en_US",
      renderedText: "Hi Ada",
    });

    const plain = await call("", { "x-api-key": ownKey }, campaign.id);
    expect((await plain.text()).split("\r\n")[0]).toBe(`${LOG_CSV_COLUMNS.join(",")},journey_step`);

    const wide = await call("attributes=true&status=queued", { "x-api-key": ownKey }, campaign.id);
    expect(wide.status).toBe(200);
    const [header, ...rows] = Papa.parse<string[]>(await wide.text(), { skipEmptyLines: true }).data;
    expect(header).toEqual([...LOG_CSV_COLUMNS, "attributes.name", "attributes.city", "attributes.plan", "journey_step"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(LOG_CSV_COLUMNS.length)).toEqual(["Ada", "'=Paris", "gold", ""]);

    const bad = await call("attributes=yes", { "x-api-key": ownKey }, campaign.id);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("attributes=true");
  });
});
