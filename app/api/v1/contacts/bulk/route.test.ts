import { beforeAll, describe, expect, it } from "vitest";
import { MAX_RECORD_CHARS } from "@/lib/imports/csv";
import { bulkResultSchema, importSchema, type ImportView } from "@/lib/imports/schemas";
import { parseStrict } from "@/lib/http/request";
import { callRoute, createApiAccount, type ApiAccount } from "@/lib/testing/api-factories";
import { GET as GET_IMPORT } from "../../imports/[id]/route";
import { GET as LIST_IMPORTS } from "../../imports/route";
import { GET as GET_CONTACT } from "../[idOrPhone]/route";
import { POST } from "./route";

let owner: ApiAccount;
let other: ApiAccount;

beforeAll(async () => {
  owner = await createApiAccount();
  other = await createApiAccount();
});

const bulk = (account: ApiAccount, body: unknown, headers?: Record<string, string>) =>
  callRoute<Record<string, unknown>>(POST, "POST", "/api/v1/contacts/bulk", { key: account.key, body, headers });
const contact = async (account: ApiAccount, phone: string) => {
  const segment = encodeURIComponent(phone);
  return callRoute(GET_CONTACT, "GET", `/api/v1/contacts/${segment}`, { key: account.key, params: { idOrPhone: segment } });
};

describe("POST /api/v1/contacts/bulk (JSON)", () => {
  it("creates and updates contacts by phone in one request, in the order sent", async () => {
    const first = await bulk(owner, [
      { phone: "+447911123456", name: "Ann", attributes: { city: "Leeds" } },
      { phone: "+447911123457", optedOut: true },
    ]);
    expect(first.status).toBe(200);
    const result = parseStrict(bulkResultSchema, first.body);
    expect(result).toMatchObject({ created: 2, updated: 0 });
    expect(result.data.map((item) => [item.phone, item.created])).toEqual([
      ["+447911123456", true],
      ["+447911123457", true],
    ]);

    const second = parseStrict(bulkResultSchema, (await bulk(owner, [{ phone: "+447911123458" }, { phone: "+447911123456", attributes: { tier: "gold" } }, { phone: "+447911123457", optedOut: false }])).body);
    expect(second).toMatchObject({ created: 1, updated: 2 });
    expect(second.data[1]!.id).toBe(result.data[0]!.id);
    expect((await contact(owner, "+447911123456")).body).toMatchObject({ name: "Ann", attributes: { city: "Leeds", tier: "gold" } });
    expect((await contact(owner, "+447911123457")).body).toMatchObject({ consent: { optedOut: false } });
  });

  it("records an API opt-out with the key's name", async () => {
    await bulk(owner, [{ phone: "+447911123470", optedOut: true }]);
    expect((await contact(owner, "+447911123470")).body).toMatchObject({ consent: { optedOut: true, method: "api", detail: "Test integration" } });
  });

  it("422 with item paths, writing nothing: bad phones, duplicates, unknown members, over 1,000 items", async () => {
    const invalid = await bulk(owner, [{ phone: "+447911123480" }, { phone: "07911 123481" }, { phone: "+447911123480" }, { phone: "+447911123482", colour: "red" }]);
    expect(invalid.status).toBe(422);
    const paths = (invalid.body.errors as { path: string }[]).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["[1].phone", "[3].colour"]));
    expect((await contact(owner, "+447911123480")).status).toBe(404);

    const duplicate = await bulk(owner, [{ phone: "+447911123483" }, { phone: "+447911123483", name: "Again" }]);
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual([expect.objectContaining({ path: "[1].phone", code: "duplicate_phone" })]);

    const tooMany = await bulk(owner, Array.from({ length: 1001 }, (_, i) => ({ phone: `+4479111${String(20000 + i).padStart(5, "0")}` })));
    expect(tooMany.status).toBe(422);
    expect((await bulk(owner, [])).status).toBe(422);
    expect((await bulk(owner, { phone: "+447911123484" })).status).toBe(422);
  });

  it("keeps workspaces apart: the same phone is another contact in another workspace", async () => {
    await bulk(owner, [{ phone: "+447911123490", name: "Owner's" }]);
    const theirs = parseStrict(bulkResultSchema, (await bulk(other, [{ phone: "+447911123490", name: "Other's" }])).body);
    expect(theirs.created).toBe(1);
    expect((await contact(owner, "+447911123490")).body).toMatchObject({ name: "Owner's" });
  });
});

describe("POST /api/v1/contacts/bulk (CSV)", () => {
  async function finished(account: ApiAccount, location: string): Promise<ImportView> {
    const id = location.split("/").at(-1)!;
    for (let i = 0; i < 200; i++) {
      const { body } = await callRoute<ImportView>(GET_IMPORT, "GET", location, { key: account.key, params: { id } });
      if (body.status === "completed" || body.status === "failed") return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("The import did not finish.");
  }

  it("turns a CSV body into an import job mapped by its header: 202 and Location", async () => {
    const response = await bulk(owner, "phone,name,city\n+447911123501,Csv One,York\n+447911123502,Csv Two,\n4.41E+11,Broken,Hull\n", { "content-type": "text/csv" });
    expect(response.status).toBe(202);
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/imports\/imp_/);
    expect(parseStrict(importSchema, response.body)).toMatchObject({ status: "processing", rowsRead: 3 });
    expect(await finished(owner, location)).toMatchObject({ status: "completed", created: 2, invalid: 1 });
    expect((await contact(owner, "+447911123501")).body).toMatchObject({ name: "Csv One", attributes: { city: "York" } });
    expect((await callRoute(GET_IMPORT, "GET", location, { key: other.key, params: { id: location.split("/").at(-1)! } })).status).toBe(404);
  });

  it("422 for a CSV without a phone column or with a header that is not an attribute name", async () => {
    const noPhone = await bulk(owner, "mobile,name\n+447911123503,X\n", { "content-type": "text/csv" });
    expect(noPhone.status).toBe(422);
    expect(noPhone.body.errors).toEqual([expect.objectContaining({ path: "file.header" })]);
    const badHeader = await bulk(owner, "phone,first name\n+447911123504,X\n", { "content-type": "text/csv" });
    expect(badHeader.status).toBe(422);
    expect((await contact(owner, "+447911123503")).status).toBe(404);
    // A refused body leaves no job behind.
    const jobs = await callRoute<{ data: ImportView[] }>(LIST_IMPORTS, "GET", "/api/v1/imports?limit=100", { key: owner.key });
    expect(jobs.body.data.filter((job) => job.status === "awaiting_file")).toEqual([]);
  });

  it("refuses, row by row, a row holding a NUL character and a row over the record cap, and imports the rest", async () => {
    // Twenty text attributes, each under the attribute's length limit, together over the record cap.
    const notes = Array.from({ length: 20 }, (_, i) => `note${i}`);
    const empty = ",".repeat(notes.length);
    const long = notes.map(() => "n".repeat(Math.ceil(MAX_RECORD_CHARS / notes.length))).join(",");
    const csv = `phone,name,${notes.join(",")}\n+447911123511,Fine${empty}\n+447911123512,Nul\u0000${empty}\n+447911123513,Long,${long}\n+447911123514,After${empty}\n`;
    const response = await bulk(owner, csv, { "content-type": "text/csv" });
    expect(response.status).toBe(202);
    expect(await finished(owner, response.headers.get("location")!)).toMatchObject({ status: "completed", rowsRead: 4, created: 2, invalid: 2 });
    expect((await contact(owner, "+447911123514")).body).toMatchObject({ name: "After" });
  });

  it("a consent column sets consent as the JSON form does: statuses and yes/no, true/false, 1/0, source api with the key's name", async () => {
    // An earlier unsubscribe by the API: the JSON form's rule (`direct`) lets the caller lift it, unlike an import's.
    await bulk(owner, [{ phone: "+447911123526", consent: "unsubscribed" }]);
    const csv = [
      "phone,Consent,city",
      "+447911123521,subscribed,York",
      "+447911123522,Unsubscribed,York",
      "+447911123523,yes,York",
      "+447911123524, 0 ,York",
      "+447911123525,,York",
      "+447911123526,TRUE,York",
      "+447911123527,no,York",
    ].join("\n");
    const response = await bulk(owner, `${csv}\n`, { "content-type": "text/csv" });
    expect(response.status).toBe(202);
    expect(await finished(owner, response.headers.get("location")!)).toMatchObject({ status: "completed", created: 6, updated: 1, invalid: 0 });
    const consentOf = async (phone: string) => ((await contact(owner, phone)).body as { consent: Record<string, unknown> }).consent;
    expect(await consentOf("+447911123521")).toMatchObject({ status: "subscribed", source: "api" });
    expect(await consentOf("+447911123522")).toMatchObject({ status: "unsubscribed", source: "api", optedOut: true, method: "api", detail: "Test integration" });
    expect(await consentOf("+447911123523")).toMatchObject({ status: "subscribed", source: "api" });
    expect(await consentOf("+447911123524")).toMatchObject({ status: "unknown" });
    expect(await consentOf("+447911123525")).toMatchObject({ status: "unknown", source: null });
    expect(await consentOf("+447911123526")).toMatchObject({ status: "subscribed", source: "api", optedOut: false });
    expect(await consentOf("+447911123527")).toMatchObject({ status: "unknown" });
    // The column is consent, not an attribute.
    expect((await contact(owner, "+447911123521")).body).toMatchObject({ attributes: { city: "York" } });
    expect(((await contact(owner, "+447911123521")).body as { attributes: Record<string, unknown> }).attributes).not.toHaveProperty("Consent");
  });

  it("422 naming the row for a consent value it does not know, importing nothing and leaving no job", async () => {
    const response = await bulk(owner, "phone,consent\n+447911123531,yes\n+447911123532,maybe\n+447911123533,no\n", { "content-type": "text/csv" });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ path: "file.rows[3].consent", code: "invalid_consent", message: expect.stringMatching(/^Row 3: "maybe"/) })]);
    expect(response.body.detail).toMatch(/Row 3/);
    expect((await contact(owner, "+447911123531")).status).toBe(404);
    const jobs = await callRoute<{ data: ImportView[] }>(LIST_IMPORTS, "GET", "/api/v1/imports?limit=100", { key: owner.key });
    expect(jobs.body.data.filter((job) => job.status === "awaiting_file")).toEqual([]);
  });

  it("415 for a body that is neither JSON nor CSV", async () => {
    expect((await bulk(owner, "phone\n+447911123505\n", { "content-type": "text/plain" })).status).toBe(415);
  });
});
