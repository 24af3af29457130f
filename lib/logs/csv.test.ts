import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Executor } from "@/db";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow, insertMessageRows } from "@/lib/testing/logs-factories";
import { csvHeaderLine, LOG_CSV_COLUMNS, logsCsvFileName, logsCsvStream, neutraliseCell, papaparseCsvStream, phoneCell, slugify } from "./csv";
import { parseLogFilters } from "./filters";
import type { LogScope } from "./query";

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function parseCsv(text: string): string[][] {
  const result = Papa.parse<string[]>(text, { header: false, skipEmptyLines: true });
  expect(result.errors).toEqual([]);
  return result.data;
}

/** Counts SELECT statements issued through the executor. */
function countingSelects(db: Executor): { db: Executor; selects: () => number } {
  let count = 0;
  const wrapped = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "select") {
        return (...args: unknown[]) => {
          count += 1;
          return (target.select as (...a: unknown[]) => unknown)(...args);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: wrapped, selects: () => count };
}

describe("cell neutralisation", () => {
  it.each([
    ["=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"],
    ["+1+1", "'+1+1"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["plain", "plain"],
    ["a=b", "a=b"],
    ["", ""],
  ])("%j → %j", (input, output) => {
    expect(neutraliseCell(input)).toBe(output);
  });

  it("leaves well-formed E.164 phone numbers alone and neutralises anything else", () => {
    expect(phoneCell("+14155550100")).toBe("+14155550100");
    expect(phoneCell("+1+1")).toBe("'+1+1");
    expect(phoneCell("+0123456789")).toBe("'+0123456789");
    expect(phoneCell("=1+2")).toBe("'=1+2");
  });
});

describe("file name", () => {
  it("slugs the campaign name and dates the file in UTC", () => {
    expect(logsCsvFileName("Spring Sale — VIP Crème!", new Date("2026-11-21T23:59:00Z"))).toBe("spring-sale-vip-creme-logs-2026-11-21.csv");
    expect(slugify("=HYPERLINK(\"http://x\")")).toBe("hyperlink-http-x");
    expect(slugify("🎉🎉")).toBe("campaign");
  });
});

describe("logs CSV export", () => {
  let scope: LogScope;
  const nasty = {
    renderedText: "Hi \"Ada\", your order #12, 3 items\nships today 🎉\r\nReply STOP",
    errorReason: "=HYPERLINK(\"http://x\")",
  };

  beforeAll(async () => {
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId, { name: "=HYPERLINK(\"http://x\")" });
    scope = { workspaceId: account.workspaceId, campaignId: campaign.id };
    await insertMessageRows(account.workspaceId, campaign.id, [
      {
        phoneNumber: "+14155550101",
        status: "read",
        createdAt: new Date("2026-11-20T10:00:00.123Z"),
        sentAt: new Date("2026-11-20T10:00:01Z"),
        deliveredAt: new Date("2026-11-20T10:00:02Z"),
        readAt: new Date("2026-11-20T10:05:00Z"),
      },
      {
        phoneNumber: "+447700900102",
        templateName: "@promo",
        templateLanguage: "en_GB",
        renderedText: nasty.renderedText,
        status: "failed",
        errorCode: "-1",
        errorReason: nasty.errorReason,
        createdAt: new Date("2026-11-20T11:00:00Z"),
        failedAt: new Date("2026-11-20T11:00:01Z"),
      },
      { phoneNumber: "+14155550103", status: "sending", createdAt: new Date("2026-11-19T09:00:00Z") },
    ]);
    const other = await createTestAccount();
    const otherCampaign = await insertCampaignRow(other.workspaceId);
    await insertMessageRows(other.workspaceId, otherCampaign.id, [{ phoneNumber: "+14155550101", createdAt: new Date("2026-11-20T12:00:00Z") }]);
  });

  it("writes the header and every column in order, RFC 4180 quoted, and round-trips through papaparse", async () => {
    const text = await readAll(await logsCsvStream(await getDb(), scope, {}));
    expect(text.startsWith(`${LOG_CSV_COLUMNS.join(",")},journey_step\r\n`)).toBe(true);
    expect(csvHeaderLine()).toBe("created_at,message_id,phone_number,template,message,status,error_code,error_reason,sent_at,delivered_at,read_at,replied_at,direction,source,journey_step\r\n");
    expect(text.endsWith("\r\n")).toBe(true);
    // Quotes doubled inside a quoted field; the embedded newlines stay inside the quotes.
    expect(text).toContain('"Hi ""Ada"", your order #12, 3 items\nships today 🎉\r\nReply STOP"');

    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...LOG_CSV_COLUMNS, "journey_step"]);
    expect(rows).toHaveLength(3);
    const [failed, read, queued] = rows.map((row) => Object.fromEntries(header!.map((column, i) => [column, row[i]])));
    expect(failed).toMatchObject({
      created_at: "2026-11-20T11:00:00.000Z",
      phone_number: "+447700900102",
      template: "'@promo (en_GB)",
      message: nasty.renderedText,
      status: "failed",
      error_code: "'-1",
      error_reason: "'=HYPERLINK(\"http://x\")",
      sent_at: "",
      read_at: "",
    });
    expect(failed!.message_id).toMatch(/^msg_/);
    expect(read).toMatchObject({
      created_at: "2026-11-20T10:00:00.123Z",
      phone_number: "+14155550101",
      template: "order_update (en_US)",
      status: "read",
      error_code: "",
      error_reason: "",
      sent_at: "2026-11-20T10:00:01.000Z",
      delivered_at: "2026-11-20T10:00:02.000Z",
      read_at: "2026-11-20T10:05:00.000Z",
    });
    expect(queued).toMatchObject({ phone_number: "+14155550103", status: "queued" });
  });

  it("is UTF-8 bytes", async () => {
    const stream = await logsCsvStream(await getDb(), scope, parseLogFilters({ status: "failed" }));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    const party = Buffer.from("🎉", "utf8");
    expect(Buffer.from(bytes).includes(party)).toBe(true);
  });

  it("exports exactly what the filters select, across many batches", async () => {
    const db = await getDb();
    const only = async (query: Record<string, string>, batchSize?: number) =>
      parseCsv(await readAll(await (batchSize ? papaparseCsvStream : logsCsvStream)(db, scope, parseLogFilters(query), { batchSize }))).slice(1).map((row) => row[2]);
    expect(await only({ status: "failed" })).toEqual(["+447700900102"]);
    expect(await only({ status: "queued" })).toEqual(["+14155550103"]);
    expect(await only({ phone: "4155" })).toEqual(["+14155550101", "+14155550103"]);
    expect(await only({ from: "2026-11-20", to: "2026-11-20" })).toEqual(["+447700900102", "+14155550101"]);
    expect(await only({ from: "2026-11-21" })).toEqual([]);
    expect(await only({}, 1)).toEqual(["+447700900102", "+14155550101", "+14155550103"]);
    expect(await only({}, 2)).toEqual(["+447700900102", "+14155550101", "+14155550103"]);
    expect(await only({}, 3)).toEqual(["+447700900102", "+14155550101", "+14155550103"]);
  });

  it("writes only the header when nothing matches", async () => {
    const text = await readAll(await logsCsvStream(await getDb(), scope, parseLogFilters({ status: "delivered" })));
    expect(text).toBe(csvHeaderLine());
  });

  it("reads batches only as the client consumes them and stops when the client goes away (embedded path)", async () => {
    const account = await createTestAccount();
    const campaign = await insertCampaignRow(account.workspaceId);
    await insertMessageRows(account.workspaceId, campaign.id, Array.from({ length: 40 }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)) })));
    const { db, selects } = countingSelects(await getDb());
    const stream = await papaparseCsvStream(db, { workspaceId: account.workspaceId, campaignId: campaign.id }, {}, { batchSize: 2 });
    const reader = stream.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("created_at");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const beforeCancel = selects();
    // 21 batch reads (two selects each: messages sent, replies) would export everything; a stalled client has caused only a few.
    expect(beforeCancel).toBeLessThanOrEqual(8);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(selects()).toBe(beforeCancel);
  });
});
