// The two export paths give the same bytes: COPY (Postgres) and papaparse (embedded) over a
// fixture holding every awkward value. On Postgres the streamed COPY output is compared with the
// papaparse output; the embedded database runs the same COPY into a blob.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Executor } from "@/db";
import { contacts, messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertInboundRows } from "@/lib/testing/logs-factories";
import { csvHeaderLine, csvLines, logsCsvStream, papaparseCsvStream } from "./csv";
import { copyCsvStream, copyStatement, postgresJsClient, sqlLiteral } from "./csv-copy";
import { mappedExportAttributes, rawExportBatches } from "./export-query";
import { parseLogFilters } from "./filters";
import type { LogScope } from "./query";

const onPostgres = Boolean(process.env.DATABASE_URL);
const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
const ATTRIBUTES = ["name", "city", "points", "vip", "prefs", "formula", "missing"];
const LONG = `${"Lorem ipsum, dolor \"sit\" amet; ".repeat(300)}end`;

let scope: LogScope;

async function insertFixture(db: Executor, workspaceId: string, campaignId: string) {
  const withAttributes = newId("ctc");
  const bare = newId("ctc");
  await db.insert(contacts).values([
    {
      id: withAttributes,
      workspaceId,
      phoneNumber: "+14155550101",
      name: 'Ada "The Countess", Lovelace',
      attributes: { city: " Zürich, CH ", points: 1.5, vip: true, prefs: { lang: "de", tags: ["a", "b"] }, formula: "=SUM(A1:A9)" },
    },
    { id: bare, workspaceId, phoneNumber: "+447700900102", name: null, attributes: {} },
  ]);
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute, 0, minute * 7));
  const rows: Partial<typeof messages.$inferInsert>[] = [
    { renderedText: 'He said "hi", then left', contactId: withAttributes, status: "read", sentAt: at(1), deliveredAt: at(2), readAt: at(3) },
    { renderedText: "line 1\r\nline 2\nline 3\rline 4", contactId: bare, status: "delivered", sentAt: at(1), deliveredAt: at(2) },
    { renderedText: "=1+2", errorCode: "-1", errorReason: "+cmd|' /C calc'!A0", status: "failed", failedAt: at(4) },
    { renderedText: "@mention", templateName: "@promo", templateLanguage: "en_GB", status: "sending" },
    { renderedText: "\tTabbed", errorReason: "\rcarriage", status: "queued" },
    { renderedText: "-minus", status: "skipped", errorCode: "opted_out", errorReason: "Opted out by keyword STOP" },
    { renderedText: "🎉 party 👍🏽 — naïve café \u{1F600}", status: "sent", sentAt: at(5) },
    { renderedText: LONG, status: "sent", sentAt: at(6) },
    { renderedText: " padded both sides ", phoneNumber: "+0123456789" },
    { renderedText: "", phoneNumber: "  0044 7700 900102 " },
    { renderedText: "bom\uFEFFinside and back\\slash C:\\path\\", phoneNumber: "=1+1" },
    { renderedText: "not a phone", phoneNumber: "+1+1" },
    { renderedText: "E.164 but trailing newline", phoneNumber: "+14155550199\n" },
    { renderedText: "empty error code", errorCode: "", errorReason: "" },
    { renderedText: "a test send", status: "delivered", source: "test" },
    { renderedText: "a bulk send", status: "sent", source: "bulk" },
  ];
  await db.insert(messages).values(
    rows.map((row, index) => ({
      id: newId("msg"),
      workspaceId,
      campaignId,
      phoneNumber: "+14155550100",
      templateName: "order_update",
      templateLanguage: "en_US",
      createdAt: at(10 + (index % 5)),
      ...row,
    }) as typeof messages.$inferInsert),
  );
}

beforeAll(async () => {
  const db = await getDb();
  const account = await createTestAccount();
  const campaign = await insertCampaignRow(account.workspaceId, { name: "Nasty values" });
  scope = { workspaceId: account.workspaceId, campaignId: campaign.id };
  await insertFixture(db, account.workspaceId, campaign.id);
  // Replies to the campaign's messages, with awkward text, at the same minutes as the messages.
  const reply = (minute: number) => new Date(`2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`);
  await insertInboundRows(account.workspaceId, campaign.id, [
    { phoneNumber: "+14155550101", text: 'He said "stop", then =1+2', createdAt: reply(10) },
    { phoneNumber: "+14155550102", kind: "button", text: "Stop promotions", payload: "STOP", createdAt: reply(11) },
    { phoneNumber: "+14155550103", kind: "media", text: "line 1\nline 2", media: { id: "m", mimeType: "image/png", caption: "line 1\nline 2", filename: null, kind: "image" }, createdAt: reply(12) },
    { phoneNumber: "=cmd", kind: "interactive", text: null, payload: "slot-2", createdAt: reply(13) },
    { phoneNumber: "+447700900104", kind: "unsupported", text: null, createdAt: reply(14) },
  ]);
  // Another workspace's messages never leak into the export.
  const other = await createTestAccount();
  const otherCampaign = await insertCampaignRow(other.workspaceId);
  await insertFixture(db, other.workspaceId, otherCampaign.id);
});

/** The query-string filters, plus `excludeTests` as the export route sets it. */
const exportFilters = ({ excludeTests, ...filters }: Record<string, string>) => ({ ...parseLogFilters(filters), excludeTests: excludeTests === "true" });

/** The papaparse path's bytes with a chosen line end (the COPY blob ends rows with LF). */
async function papaparseText(db: Executor, filters: Record<string, string>, attributeKeys: string[], newline: string): Promise<string> {
  let out = csvHeaderLine(attributeKeys).replace(/\r\n$/, newline);
  for await (const batch of rawExportBatches(db, scope, exportFilters(filters), attributeKeys, 4)) out += csvLines(batch, attributeKeys, newline);
  return out;
}

async function copyBlobText(db: Executor, filters: Record<string, string>, attributeKeys: string[]): Promise<string> {
  const client = (db as unknown as { $client: { query(text: string): Promise<{ blob?: Blob }> } }).$client;
  const result = await client.query(copyStatement(scope, exportFilters(filters), attributeKeys, "'/dev/blob'"));
  return result.blob!.text();
}

const cases: [string, Record<string, string>, string[]][] = [
  ["every message, fixed columns", {}, []],
  ["every message with the attribute columns", {}, ATTRIBUTES],
  ["status and phone filters", { status: "queued,failed", phone: "4155" }, ["city"]],
  ["date range", { from: "2026-11-20T10:11:00Z", to: "2026-11-20T10:13:00Z" }, []],
  ["nothing matches", { status: "read", phone: "999" }, ATTRIBUTES],
  ["replies only", { direction: "inbound" }, ATTRIBUTES],
  ["messages sent only", { direction: "outbound", phone: "4155" }, []],
  ["replies and messages of a phone", { phone: "0102" }, ["city"]],
  ["test sends left out", { excludeTests: "true" }, ["city"]],
];

describe("COPY and papaparse give byte-identical exports", () => {
  it.each(cases)("%s", async (_name, filters, attributeKeys) => {
    const db = await getDb();
    const papaparse = await text(await papaparseCsvStream(db, scope, exportFilters(filters), { attributeKeys, batchSize: 3 }));
    if (onPostgres) {
      const client = postgresJsClient(db)!;
      const copied = await text(await copyCsvStream(client, scope, exportFilters(filters), attributeKeys));
      expect(copied).toBe(papaparse);
      // The route's choice on Postgres is the COPY path.
      expect(await text(await logsCsvStream(db, scope, exportFilters(filters), { attributeKeys }))).toBe(papaparse);
    } else {
      expect(await copyBlobText(db, filters, attributeKeys)).toBe(await papaparseText(db, filters, attributeKeys, "\n"));
      expect(await text(await logsCsvStream(db, scope, exportFilters(filters), { attributeKeys }))).toBe(papaparse);
    }
  });

  it("writes the awkward cells as a spreadsheet should read them", async () => {
    const db = await getDb();
    const csv = await text(await logsCsvStream(db, scope, {}, { attributeKeys: ATTRIBUTES }));
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "created_at,message_id,phone_number,template,message,status,error_code,error_reason,sent_at,delivered_at,read_at,replied_at,direction,source," +
        "attributes.name,attributes.city,attributes.points,attributes.vip,attributes.prefs,attributes.formula,attributes.missing,journey_step",
    );
    expect(csv).toContain(',"He said ""hi"", then left",read,,,');
    expect(csv).toContain('"line 1\r\nline 2\nline 3\rline 4"');
    expect(csv).toContain(`"'=1+2",failed,"'-1","'+cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"'@promo (en_GB)","'@mention",queued,`);
    expect(csv).toContain(`"'\tTabbed",queued,,"'\rcarriage"`);
    expect(csv).toContain(`"'+0123456789","order_update (en_US)"," padded both sides "`);
    expect(csv).toContain(`,"  0044 7700 900102 ","order_update (en_US)",,queued,`);
    expect(csv).toContain(`,"'=1+1",`);
    expect(csv).toContain(`,"'+1+1",`);
    expect(csv).toContain(`"'+14155550199\n"`);
    expect(csv).toContain(`"empty error code",queued,,,`);
    expect(csv).toContain(`"Ada ""The Countess"", Lovelace"," Zürich, CH ","1.5","true","{""lang"": ""de"", ""tags"": [""a"", ""b""]}","'=SUM(A1:A9)",,\r\n`);
    expect(csv).toContain("🎉 party 👍🏽");
    expect(csv).toContain(LONG.replace(/"/g, '""'));
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(lines.filter((line) => /^\d{4}-/.test(line))).toHaveLength(21);
    // Replies: no template, status received, direction inbound; their text quoted and neutralised like any cell.
    expect(csv).toContain(`,"He said ""stop"", then =1+2",received,,,,,,,inbound,reply,`);
    expect(csv).toContain(`,"Button: Stop promotions",received,`);
    expect(csv).toContain(`,"'=cmd",,"Reply: slot-2",received,`);
    expect(csv).toContain(`,"image (image/png): line 1\nline 2",received,`);
    expect(lines.filter((line) => line.includes(",outbound,"))).toHaveLength(16);
    // How each message was sent: the fixture's default (trigger), a test send, a bulk send; `reply` for a reply.
    expect(csv).toContain(`"a test send",delivered,,,,,,,outbound,test,`);
    expect(csv).toContain(`"a bulk send",sent,,,,,,,outbound,bulk,`);
    expect(lines.filter((line) => line.includes(",outbound,trigger,"))).toHaveLength(14);
    expect(lines.filter((line) => line.includes(",inbound,reply,"))).toHaveLength(5);
  });
});

describe("the COPY statement", () => {
  it("inlines parameters as escaped literals", () => {
    expect(sqlLiteral("it's a \\ test")).toBe("E'it''s a \\\\ test'");
    expect(sqlLiteral(new Date("2026-11-20T00:00:00Z"))).toBe("E'2026-11-20T00:00:00.000Z'");
    expect(sqlLiteral(12)).toBe("12");
    expect(sqlLiteral(null)).toBe("null");
    expect(() => sqlLiteral("a\0b")).toThrow();
    expect(() => sqlLiteral({})).toThrow();
  });

  it("keeps a hostile workspace id a literal", async () => {
    const db = await getDb();
    const hostile = { workspaceId: "x' or '1'='1", campaignId: scope.campaignId };
    const statement = copyStatement(hostile, {}, []);
    expect(statement).toContain("E'x'' or ''1''=''1'");
    if (onPostgres) expect(await text(await logsCsvStream(db, hostile, {}))).toBe(csvHeaderLine());
    else {
      const client = (db as unknown as { $client: { query(text: string): Promise<{ blob?: Blob }> } }).$client;
      expect(await (await client.query(copyStatement(hostile, {}, [], "'/dev/blob'"))).blob!.text()).toBe(csvHeaderLine().replace("\r\n", "\n"));
    }
  });
});

describe("mapped attributes", () => {
  it("lists the trigger fields' attributes, then the template variables', once each, phone left out", () => {
    expect(
      mappedExportAttributes({
        triggerConfig: {
          phoneField: "phone",
          phoneFallbacks: [],
          countryField: null,
          example: null,
          fields: [
            { field: "first", fallbacks: [], attribute: "name", type: "string", required: false },
            { field: "town", fallbacks: [], attribute: "city", type: "string", required: true },
          ],
        },
        messageConfig: {
          variables: [
            { key: "1", attribute: "city", fallback: null },
            { key: "2", attribute: "plan", fallback: "basic" },
            { key: "3", attribute: null, fallback: "x" },
            { key: "4", attribute: "phoneNumber", fallback: null },
          ],
        },
      }),
    ).toEqual(["name", "city", "plan"]);
  });
});

describe.skipIf(!onPostgres)("COPY backpressure (Postgres)", () => {
  it("pauses the query while the client is not reading, and frees the connection when it goes away", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId, { name: "Big" });
    const rows = 20_000;
    await db.execute(sql`
      insert into messages (id, workspace_id, campaign_id, phone_number, template_name, template_language, rendered_text, created_at)
      select 'msg_bp' || g || ${campaign.id}, ${account.workspaceId}, ${campaign.id}, '+14155550100', 'order_update', 'en_US',
             repeat('x', 20000), now() - g * interval '1 second'
      from generate_series(1, ${rows}) g`);
    const big = { workspaceId: account.workspaceId, campaignId: campaign.id };
    // 400 MB of CSV (stored compressed): far too much to drain in the seconds allowed below, so
    // the COPY ending after the client leaves means it was cancelled.

    const reader = (await logsCsvStream(db, big, {})).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const copyActivity = async () =>
      (await db.execute(sql`select state, wait_event from pg_stat_activity
              where datname = current_database() and query like '%copy (select%' and pid <> pg_backend_pid()`)) as unknown as {
        state: string;
        wait_event: string | null;
      }[];
    // The output does not fit in the socket buffers: with the client stalled, the server waits to write.
    let stalled: { state: string; wait_event: string | null }[] = [];
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stalled = await copyActivity();
      if (stalled[0]?.wait_event === "ClientWrite") break;
    }
    expect(stalled).toContainEqual({ state: "active", wait_event: "ClientWrite" });

    await reader.cancel();
    let remaining = stalled;
    for (let i = 0; i < 50 && remaining.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      remaining = (await copyActivity()).filter((row) => row.state === "active");
    }
    expect(remaining).toEqual([]);
    // The pool still answers (the connection that ran the COPY was released, not wedged).
    const again = await text(await logsCsvStream(db, big, parseLogFilters({ status: "read" })));
    expect(again).toBe(csvHeaderLine());
  });
});

describe.skipIf(!onPostgres)("a client that stops reading (Postgres)", () => {
  it("has its export cut short and its query cancelled once it has read nothing for the limit", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId, { name: "Stalled" });
    await db.execute(sql`
      insert into messages (id, workspace_id, campaign_id, phone_number, template_name, template_language, rendered_text, created_at)
      select 'msg_st' || g || ${campaign.id}, ${account.workspaceId}, ${campaign.id}, '+14155550100', 'order_update', 'en_US',
             repeat('y', 20000), now() - g * interval '1 second'
      from generate_series(1, 3000) g`);
    const scope = { workspaceId: account.workspaceId, campaignId: campaign.id };
    const reader = (await copyCsvStream(postgresJsClient(db)!, scope, parseLogFilters({}), [], { stalledReaderLimitMs: 1_000 })).getReader();
    expect((await reader.read()).done).toBe(false);
    // The reader reads nothing more: past the limit the stream fails and the COPY stops.
    const activeCopies = async () =>
      ((await db.execute(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and query like '%copy (select%' and state = 'active' and pid <> pg_backend_pid()`)) as unknown as { n: number }[])[0]!.n;
    await expect.poll(activeCopies, { timeout: 15_000, interval: 200 }).toBe(0);
    let failure: unknown;
    try {
      for (let i = 0; i < 1_000; i++) if ((await reader.read()).done) break;
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/stopped reading/);
    expect(await db.execute(sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
