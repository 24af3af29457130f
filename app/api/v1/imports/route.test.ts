import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { STORE_FAILED_REASON } from "@/lib/imports/store";
import { importPageSchema, importSchema, type ImportView } from "@/lib/imports/schemas";
import { parseStrict } from "@/lib/http/request";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie, type ApiAccount } from "@/lib/testing/api-factories";
import { GET as GET_IMPORT } from "./[id]/route";
import { PUT as PUT_FILE } from "./[id]/file/route";
import { GET as GET_REJECTED } from "./[id]/rejected.csv/route";
import { GET as LIST, POST as CREATE } from "./route";
import { GET as GET_CONTACT } from "../contacts/[idOrPhone]/route";

let owner: ApiAccount;
let other: ApiAccount;

beforeAll(async () => {
  owner = await createApiAccount();
  other = await createApiAccount();
});

const OPTIONS = {
  fileName: "fair.csv",
  columns: [
    { index: 0, header: "phone", target: { type: "phone" } },
    { index: 1, header: "name", target: { type: "name" } },
    { index: 2, header: "points", target: { type: "attribute", key: "points", attributeType: "number" } },
  ],
  updateExisting: true,
  newListName: "Fair visitors",
};

const create = (account: ApiAccount, body: unknown = OPTIONS) => callRoute<ImportView>(CREATE, "POST", "/api/v1/imports", { key: account.key, body });
const upload = (account: ApiAccount, id: string, csv: string, headers: Record<string, string> = { "content-type": "text/csv" }) =>
  callRoute<ImportView>(PUT_FILE, "PUT", `/api/v1/imports/${id}/file`, { key: account.key, params: { id }, body: csv, headers });
const get = (account: ApiAccount, id: string) => callRoute<ImportView>(GET_IMPORT, "GET", `/api/v1/imports/${id}`, { key: account.key, params: { id } });

async function finished(account: ApiAccount, id: string): Promise<ImportView> {
  for (let i = 0; i < 200; i++) {
    const { body } = await get(account, id);
    if (body.status === "completed" || body.status === "failed") return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Import ${id} did not finish.`);
}

// Six rows: one without a country code, one phone twice.
const FAIR_CSV = "phone,name,points\n+447911123456,Ann,10\n+447911123457,Bo,20\n07911 123458,Cy,30\n+447911123459,Di,40\n+44 7911 123456,Ann Again,15\n+447911123460,Ed,\n";

describe("imports API", () => {
  it("creates a job, takes the file, merges it after the response and reports", async () => {
    const created = await create(owner);
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/imports/${created.body.id}`);
    expect(parseStrict(importSchema, created.body)).toMatchObject({ status: "awaiting_file", fileName: "fair.csv", rowsRead: 0, listId: null });

    const stored = await upload(owner, created.body.id, FAIR_CSV);
    expect(stored.status).toBe(202);
    expect(stored.body).toMatchObject({ status: "processing", rowsRead: 6 });
    const report = parseStrict(importSchema, await finished(owner, created.body.id));
    expect(report).toMatchObject({ status: "completed", rowsRead: 6, created: 4, updated: 0, unchanged: 0, duplicates: 1, invalid: 1, error: null });
    expect(report.listId).toMatch(/^lst_/);

    const contact = await callRoute(GET_CONTACT, "GET", "/api/v1/contacts/%2B447911123456", { key: owner.key, params: { idOrPhone: "%2B447911123456" } });
    expect(contact.body).toMatchObject({ phone: "+447911123456", name: "Ann Again", attributes: { points: 15 } });

    const rejected = await callRoute<string>(GET_REJECTED, "GET", `/api/v1/imports/${created.body.id}/rejected.csv`, { key: owner.key, params: { id: created.body.id } });
    expect(rejected.status).toBe(200);
    expect(rejected.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(rejected.headers.get("content-disposition")).toBe('attachment; filename="fair-rejected.csv"');
    expect(rejected.body).toBe("row,reason,phone,name,points\r\n4,phone: no country code; pick a default country or write the number with + and its country code,07911 123458,Cy,30\r\n");

    const list = await callRoute(LIST, "GET", "/api/v1/imports?limit=1", { key: owner.key });
    expect(list.status).toBe(200);
    expect(parseStrict(importPageSchema, list.body).data.map((job) => job.id)).toEqual([created.body.id]);

    // The same file again: nothing changes.
    const again = await create(owner);
    await upload(owner, again.body.id, FAIR_CSV);
    expect(await finished(owner, again.body.id)).toMatchObject({ created: 0, updated: 0, unchanged: 4, duplicates: 1, invalid: 1, listId: report.listId });
  });

  it("422 for a mapping without a phone, two lists, an unknown list or country, and unknown members", async () => {
    const errors = async (body: unknown) => {
      const response = await create(owner, body);
      expect(response.status).toBe(422);
      return (response.body as unknown as { errors: { path: string }[] }).errors.map((e) => e.path);
    };
    expect(await errors({ ...OPTIONS, columns: [OPTIONS.columns[1]] })).toContain("columns");
    expect(await errors({ ...OPTIONS, listId: "lst_x" })).toContain("newListName");
    expect(await errors({ ...OPTIONS, newListName: undefined, listId: "lst_doesnotexist" })).toEqual(["listId"]);
    expect(await errors({ ...OPTIONS, defaultCountry: "XX" })).toEqual(["defaultCountry"]);
    expect(await errors({ ...OPTIONS, defaultCountry: "gb" })).toEqual(["defaultCountry"]);
    expect(await errors({ ...OPTIONS, colour: "red" })).toEqual(["colour"]);
    expect(await errors({ ...OPTIONS, columns: [...OPTIONS.columns, { index: 3, header: "name", target: { type: "attribute", key: "name", attributeType: "string" } }] })).toEqual([
      "columns[3].target.key",
    ]);
  });

  it("415 for a body that is not CSV, 413 over the cap, 409 for a second file, 422 for a header that does not match", async () => {
    const { body: job } = await create(owner);
    expect((await upload(owner, job.id, '{"a":1}', { "content-type": "application/json" })).status).toBe(415);
    expect((await upload(owner, job.id, "phone\n", { "content-type": "text/csv", "content-length": String(201 * 1024 * 1024) })).status).toBe(413);
    const mismatch = await upload(owner, job.id, "mobile,name,points\n+447911123456,A,1\n");
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ errors: [expect.objectContaining({ path: "file.header", message: expect.stringContaining('"mobile"') })] });
    expect((await get(owner, job.id)).body.status).toBe("awaiting_file");
    expect((await upload(owner, job.id, FAIR_CSV)).status).toBe(202);
    const second = await upload(owner, job.id, FAIR_CSV);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ type: "/docs/api#error-import_file_already_sent" });
    await finished(owner, job.id);
  });

  it("imports a file with a NUL in one row: that row is refused with its reason, the other 200 are imported", async () => {
    const { body: job } = await create(owner);
    const rows = Array.from({ length: 200 }, (_, i) => `+4479112${String(30000 + i)},Guest ${i},${i}\n`).join("");
    const stored = await upload(owner, job.id, `phone,name,points\n${rows}+447911239999,Nul\u0000Name,1\n`);
    expect(stored.status).toBe(202);
    expect(await finished(owner, job.id)).toMatchObject({ status: "completed", rowsRead: 201, created: 200, invalid: 1, error: null });
    const rejected = await callRoute<string>(GET_REJECTED, "GET", `/api/v1/imports/${job.id}/rejected.csv`, { key: owner.key, params: { id: job.id } });
    expect(rejected.body).toBe('row,reason,phone,name,points\r\n202,"name: contains a NUL character (U+0000), which cannot be stored",+447911239999,Nul\ufffdName,1\r\n');
  });

  it("answers 202 with the job failed and its reason when the database refuses the file, and merges nothing", async () => {
    const db = await getDb();
    await db.execute(sql`alter table contact_import_rows add constraint staging_refuses_route_test check (name is distinct from 'Refused')`);
    try {
      const { body: job } = await create(owner);
      const stored = await upload(owner, job.id, "phone,name,points\n+447911239001,Fine,1\n+447911239002,Refused,2\n");
      expect(stored.status).toBe(202);
      expect(stored.body).toMatchObject({ status: "failed", error: STORE_FAILED_REASON });
      expect(await finished(owner, job.id)).toMatchObject({ status: "failed", error: STORE_FAILED_REASON, created: 0 });
    } finally {
      await db.execute(sql`alter table contact_import_rows drop constraint staging_refuses_route_test`);
    }
    expect((await callRoute(GET_CONTACT, "GET", "/api/v1/contacts/%2B447911239001", { key: owner.key, params: { idOrPhone: "%2B447911239001" } })).status).toBe(404);
  });

  it("takes the file from the signed-in web app as text/csv", async () => {
    const cookie = await sessionCookie(owner);
    const created = await callRoute<ImportView>(CREATE, "POST", "/api/v1/imports", { cookie, headers: SAME_ORIGIN, body: { ...OPTIONS, newListName: "Web upload" } });
    expect(created.status).toBe(201);
    const stored = await callRoute(PUT_FILE, "PUT", `/api/v1/imports/${created.body.id}/file`, {
      cookie,
      params: { id: created.body.id },
      body: "phone,name,points\n+447911123461,Web,1\n",
      headers: { ...SAME_ORIGIN, "content-type": "text/csv" },
    });
    expect(stored.status).toBe(202);
    expect(await finished(owner, created.body.id)).toMatchObject({ created: 1 });
  });

  it("answers 404 for another workspace's import on every route, and never lists it", async () => {
    const { body: job } = await create(owner);
    expect((await get(other, job.id)).status).toBe(404);
    expect((await upload(other, job.id, FAIR_CSV)).status).toBe(404);
    expect((await callRoute(GET_REJECTED, "GET", `/api/v1/imports/${job.id}/rejected.csv`, { key: other.key, params: { id: job.id } })).status).toBe(404);
    expect((await get(owner, job.id)).body.status).toBe("awaiting_file");
    const theirs = await callRoute<{ data: ImportView[] }>(LIST, "GET", "/api/v1/imports?limit=100", { key: other.key });
    expect(theirs.body.data).toEqual([]);
    expect((await get(owner, "imp_doesnotexist")).status).toBe(404);
    expect((await get(owner, "not-an-id")).status).toBe(404);
  });

  it("401 without credentials", async () => {
    expect((await callRoute(LIST, "GET", "/api/v1/imports")).status).toBe(401);
  });
});
