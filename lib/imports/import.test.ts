import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, isEmbedded } from "@/db";
import { queryRows } from "@/db/rows";
import { CONTACT_ID } from "@/lib/contacts/service";
import { countingDb } from "@/lib/testing/counting-db";
import { createTestAccount } from "@/lib/testing/factories";
import type { Actor } from "@/lib/workspaces";
import { MAX_RECORD_CHARS } from "./csv";
import { runImport } from "./merge";
import { importOptionsSchema, type ColumnTarget, type ImportOptionsInput } from "./schemas";
import { CLAIM_OWNER_LOCK_CLASS, claimOwnerFor } from "@/lib/messaging/owner";
import { processImport, recoverAbandonedImports, recoverImport } from "./recovery";
import { createImport, getImport, rejectedRowsCsv } from "./service";
import { STORE_FAILED_REASON, storeImportFile } from "./store";

let workspaceId: string;
let actor: Actor;

beforeAll(async () => {
  const account = await createTestAccount();
  workspaceId = account.workspaceId;
  actor = { type: "user", id: account.id, email: account.email, name: account.name };
});

/** The file in small chunks, split inside records and inside multi-byte characters. */
async function* chunks(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function* byteChunks(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

const columns = (...targets: [string, ColumnTarget][]) => targets.map(([header, target], index) => ({ index, header, target }));
const CRM_COLUMNS = columns(
  ["Phone", { type: "phone" }],
  ["Name", { type: "name" }],
  ["Plan", { type: "attribute", key: "plan", attributeType: "string" }],
  ["Orders", { type: "attribute", key: "orders", attributeType: "number" }],
  ["VIP", { type: "attribute", key: "vip", attributeType: "boolean" }],
  ["Since", { type: "attribute", key: "since", attributeType: "date" }],
  ["Notes", { type: "skip" }],
);

async function importCsv(csv: string, options: Partial<ImportOptionsInput> = {}) {
  const db = await getDb();
  const parsed = importOptionsSchema.parse({ fileName: "crm.csv", columns: CRM_COLUMNS, updateExisting: true, ...options });
  const job = await createImport(db, workspaceId, parsed, actor);
  await storeImportFile(db, workspaceId, job.id, chunks(csv));
  await processImport(db, workspaceId, job.id);
  return getImport(db, workspaceId, job.id);
}

async function contact(phone: string) {
  const [row] = await queryRows<{ id: string; name: string | null; attributes: Record<string, unknown>; opted_out_at: unknown; opt_out_method: string | null; opt_out_detail: string | null }>(
    await getDb(),
    sql`select id, name, attributes, opted_out_at, opt_out_method, opt_out_detail from contacts where workspace_id = ${workspaceId} and phone_number = ${phone}`,
  );
  return row;
}

async function rejected(id: string) {
  const { stream } = await rejectedRowsCsv(await getDb(), workspaceId, id);
  return new Response(stream).text();
}

const HEADER = "Phone,Name,Plan,Orders,VIP,Since,Notes\n";

describe("CSV import", () => {
  it("maps columns to phone, name and typed attributes; refuses invalid rows with their reasons", async () => {
    const csv =
      HEADER +
      "+44 7911 123456,Ann Lee,gold,12,yes,2024-05-01,ignored\n" +
      '0044 7911 123457,"Bo, Jr.",silver,3.5,0,,\n' +
      "07911 123458,No Country,gold,1,true,,\n" +
      "4.41E+11,Excel,gold,1,true,,\n" +
      "+447911123459,Bad Number,gold,twelve,true,,\n" +
      "+447911123460,Bad Date,gold,1,true,2024-02-30,\n" +
      "+447911123461,Bad Bool,gold,1,maybe,,\n" +
      "\n" +
      "+447911123462,Émilie 🙂,,,,,\n";
    const job = await importCsv(csv);
    expect(job).toMatchObject({ status: "completed", rowsRead: 8, created: 3, updated: 0, unchanged: 0, duplicates: 0, invalid: 5, error: null });
    expect(job.finishedAt).not.toBeNull();
    expect(await contact("+447911123456")).toMatchObject({ name: "Ann Lee", attributes: { plan: "gold", orders: 12, vip: true, since: "2024-05-01" }, opted_out_at: null });
    expect(await contact("+447911123457")).toMatchObject({ name: "Bo, Jr.", attributes: { plan: "silver", orders: 3.5, vip: false } });
    expect((await contact("+447911123462"))?.name).toBe("Émilie 🙂");
    expect(await contact("+447911123458")).toBeUndefined();

    const lines = (await rejected(job.id)).trim().split("\r\n");
    expect(lines[0]).toBe("row,reason,Phone,Name,Plan,Orders,VIP,Since,Notes");
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^4,phone: no country code; pick a default country.*,07911 123458,No Country,gold,1,true,,$/),
      expect.stringMatching(/^5,phone: a spreadsheet turned this number into scientific notation.*,4\.41E\+11,Excel,gold,1,true,,$/),
      '6,"orders: Not a number: ""twelve"".",+447911123459,Bad Number,gold,twelve,true,,',
      '7,"since: Not a date as YYYY-MM-DD: ""2024-02-30"".",+447911123460,Bad Date,gold,1,true,2024-02-30,',
      '8,"vip: Not true or false: ""maybe"".",+447911123461,Bad Bool,gold,1,maybe,,',
    ]);
    const attributes = await queryRows<{ key: string; type: string }>(await getDb(), sql`select key, type from contact_attributes where workspace_id = ${workspaceId} order by key`);
    expect(attributes).toEqual(expect.arrayContaining([{ key: "orders", type: "number" }, { key: "since", type: "date" }, { key: "vip", type: "boolean" }, { key: "plan", type: "string" }]));
  });

  it("uses a default country only when one is picked, for numbers written without a country code", async () => {
    const csv = "Phone,Name,Plan,Orders,VIP,Since,Notes\n020 7946 0958,London,,,,,\n+1 415 555 2671,SF,,,,,\n(415) 555-2672,Local US,,,,,\n";
    const job = await importCsv(csv, { defaultCountry: "GB" });
    expect(job).toMatchObject({ created: 2, invalid: 1 });
    expect(await contact("+442079460958")).toMatchObject({ name: "London" });
    expect(await contact("+14155552671")).toMatchObject({ name: "SF" });
    expect(await rejected(job.id)).toContain("4,phone: not a valid phone number for GB");
  });

  it("counts duplicates inside the file (the last row wins) and against stored contacts; re-importing changes nothing", async () => {
    const csv =
      HEADER +
      "+447911234001,First,bronze,1,no,,\n" +
      "+447911234002,Two,bronze,2,no,,\n" +
      "+44 7911 234001,Last wins,gold,3,yes,,\n" +
      "+447911234003,Three,,,,,\n";
    const first = await importCsv(csv, { newListName: "Spring fair" });
    expect(first).toMatchObject({ rowsRead: 4, created: 3, updated: 0, unchanged: 0, duplicates: 1, invalid: 0 });
    expect(await contact("+447911234001")).toMatchObject({ name: "Last wins", attributes: { plan: "gold", orders: 3, vip: true } });
    const members = async () =>
      (await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from contact_list_members where list_id = ${first.listId}`))[0]!.n;
    expect(first.listId).toMatch(/^lst_/);
    expect(await members()).toBe(3);

    const again = await importCsv(csv, { newListName: "Spring fair" });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, duplicates: 1, listId: first.listId });
    expect(await members()).toBe(3);

    const changed = await importCsv(HEADER + "+447911234002,Two,silver,2,no,,\n+447911234004,Four,,,,,\n", { listId: first.listId! });
    expect(changed).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
    expect(await contact("+447911234002")).toMatchObject({ attributes: { plan: "silver", orders: 2, vip: false } });
    expect(await members()).toBe(4);
  });

  it("gives new contacts ids in phone order, keeps other workspaces apart, and changes nothing when the same file comes again", async () => {
    const db = await getDb();
    const other = await createTestAccount();
    await db.execute(sql`insert into contacts (id, workspace_id, phone_number, name) values ('ctc_otherws1', ${other.workspaceId}, '+447911235010', 'Theirs')`);
    // Written out of phone order, with a duplicate and an invalid row.
    const phones = Array.from({ length: 40 }, (_, i) => `+4479112350${String(39 - i).padStart(2, "0")}`);
    const csv = HEADER + phones.map((phone, i) => `${phone},Person ${i},gold,${i},yes,,\n`).join("") + `${phones[3]},Again,silver,3,no,,\n4.41E+11,Excel,,,,,\n`;
    const first = await importCsv(csv, { newListName: "Ordered" });
    expect(first).toMatchObject({ rowsRead: 42, created: 40, updated: 0, unchanged: 0, duplicates: 1, invalid: 1 });
    const stored = await queryRows<{ id: string; phone_number: string; updated_at: string }>(
      db,
      sql`select id, phone_number, updated_at::text from contacts where workspace_id = ${workspaceId} and phone_number like '+4479112350%' order by phone_number`,
    );
    expect(stored).toHaveLength(40);
    expect(stored.every((row) => CONTACT_ID.test(row.id))).toBe(true);
    expect(stored.map((row) => row.id)).toEqual(stored.map((row) => row.id).sort());
    expect(await contact(phones[3]!)).toMatchObject({ name: "Again", attributes: { plan: "silver", orders: 3, vip: false } });
    const theirs = await queryRows<{ id: string; name: string }>(db, sql`select id, name from contacts where phone_number = '+447911235010' order by id`);
    expect(theirs).toContainEqual({ id: "ctc_otherws1", name: "Theirs" });
    expect(theirs).toHaveLength(2);

    const members = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_list_members where list_id = ${first.listId}`))[0]!.n;
    expect(await members()).toBe(40);
    const again = await importCsv(csv, { newListName: "Ordered" });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 40, duplicates: 1, invalid: 1, listId: first.listId });
    expect(await members()).toBe(40);
    const after = await queryRows<{ id: string; phone_number: string; updated_at: string }>(
      db,
      sql`select id, phone_number, updated_at::text from contacts where workspace_id = ${workspaceId} and phone_number like '+4479112350%' order by phone_number`,
    );
    expect(after).toEqual(stored);

    // A member removed from the list joins it again; one changed row is the only update.
    await db.execute(sql`delete from contact_list_members where list_id = ${first.listId} and contact_id = ${stored[0]!.id}`);
    const changed = await importCsv(csv.replace("Person 7,", "Person seven,"), { listId: first.listId! });
    expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 39 });
    expect(await members()).toBe(40);
  });

  it("merges a file of new contacts by inserting only, also when it may update existing ones", async () => {
    const { db, statements } = await countingDb();
    const parsed = importOptionsSchema.parse({ fileName: "new.csv", columns: CRM_COLUMNS, updateExisting: true });
    const job = await createImport(db, workspaceId, parsed, actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911236001,New One,gold,,,,\n+447911236002,New Two,,,,,\n"));
    statements.length = 0;
    await processImport(db, workspaceId, job.id);
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    expect(statements.filter((statement) => /insert into contacts/i.test(statement))).toHaveLength(1);
    expect(statements.filter((statement) => /update contacts/i.test(statement))).toEqual([]);
  });

  it("deletes a job's staged rows with the job (and with its workspace)", async () => {
    const db = await getDb();
    const staged = async (id: string) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_import_rows where import_id = ${id}`))[0]!.n;
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "drop.csv", columns: CRM_COLUMNS }), actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911235101,A,,,,,\n4.41E+11,B,,,,,\n"));
    expect(await staged(job.id)).toBe(2);
    await db.execute(sql`delete from contact_imports where id = ${job.id}`);
    expect(await staged(job.id)).toBe(0);

    const other = await createTestAccount();
    const theirs = await createImport(db, other.workspaceId, importOptionsSchema.parse({ fileName: "ws.csv", columns: CRM_COLUMNS }), null);
    await storeImportFile(db, other.workspaceId, theirs.id, chunks(HEADER + "+447911235102,C,,,,,\n"));
    expect(await staged(theirs.id)).toBe(1);
    await db.execute(sql`delete from workspaces where id = ${other.workspaceId}`);
    expect(await staged(theirs.id)).toBe(0);
  });

  it("leaves existing contacts alone unless updateExisting is set", async () => {
    await importCsv(HEADER + "+447911234101,Original,gold,,,,\n");
    const job = await importCsv(HEADER + "+447911234101,Renamed,silver,,,,\n", { updateExisting: false });
    expect(job).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await contact("+447911234101")).toMatchObject({ name: "Original", attributes: { plan: "gold" } });
  });

  it("maps an opted_out column: true opts out by import, false opts back in only import opt-outs", async () => {
    const optColumns = columns(["phone", { type: "phone" }], ["unsubscribed", { type: "opted_out" }]);
    const db = await getDb();
    await importCsv("phone,unsubscribed\n+447911234201,\n+447911234202,\n", { columns: optColumns });
    await db.execute(sql`update contacts set opted_out_at = now(), opt_out_method = 'keyword', opt_out_detail = 'STOP', consent_status = 'unsubscribed' where workspace_id = ${workspaceId} and phone_number = '+447911234202'`);

    const out = await importCsv("phone,unsubscribed\n+447911234201,yes\n+447911234203,1\n+447911234204,perhaps\n", { columns: optColumns, fileName: "unsubscribes.csv" });
    expect(out).toMatchObject({ created: 1, updated: 1, invalid: 1 });
    expect(await contact("+447911234201")).toMatchObject({ opt_out_method: "import", opt_out_detail: "unsubscribes.csv" });
    expect((await contact("+447911234201"))?.opted_out_at).not.toBeNull();
    expect(await contact("+447911234203")).toMatchObject({ opt_out_method: "import" });

    const back = await importCsv("phone,unsubscribed\n+447911234201,no\n+447911234202,false\n", { columns: optColumns });
    expect(back).toMatchObject({ updated: 1, unchanged: 1 });
    expect(await contact("+447911234201")).toMatchObject({ opted_out_at: null, opt_out_method: null, opt_out_detail: null });
    // Opted out by their own reply: an import never opts them back in.
    expect(await contact("+447911234202")).toMatchObject({ opt_out_method: "keyword", opt_out_detail: "STOP" });
  });

  it("maps any column to consent through a value mapping; a file never lifts a STOP; the permission confirmation is required and audited", async () => {
    const optIn = columns(["Phone", { type: "phone" }], ["Opt-in", { type: "consent", values: { yes: "subscribed", No: "unsubscribed", "?": "unknown" } }]);
    const db = await getDb();
    // Mapping a value to subscribed needs the confirmation.
    const refused = importOptionsSchema.safeParse({ fileName: "optin.csv", columns: optIn, updateExisting: true });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join("."))).toContain("permissionConfirmed");
    expect(importOptionsSchema.safeParse({ fileName: "optout.csv", columns: columns(["Phone", { type: "phone" }], ["Out", { type: "consent", values: { x: "unsubscribed" } }]) }).success).toBe(true);

    await importCsv("Phone,Opt-in\n+447911234302,\n", { columns: optIn, permissionConfirmed: true });
    await db.execute(sql`update contacts set opted_out_at = now(), opt_out_method = 'keyword', opt_out_detail = 'STOP', consent_status = 'unsubscribed'
      where workspace_id = ${workspaceId} and phone_number = '+447911234302'`);
    const job = await importCsv("Phone,Opt-in\n+447911234301, YES \n+447911234302,yes\n+447911234303,no\n+447911234304,?\n+447911234305,\n+447911234306,maybe\n", {
      columns: optIn,
      permissionConfirmed: true,
      fileName: "optin.csv",
    });
    expect(job).toMatchObject({ created: 4, unchanged: 1, invalid: 1 });
    const consent = async (phone: string) =>
      (await queryRows<{ consent_status: string; consent_source: string | null; opt_out_method: string | null; opt_out_detail: string | null }>(
        db,
        sql`select consent_status, consent_source, opt_out_method, opt_out_detail from contacts where workspace_id = ${workspaceId} and phone_number = ${phone}`,
      ))[0];
    expect(await consent("+447911234301")).toMatchObject({ consent_status: "subscribed", consent_source: "import" });
    // Unsubscribed by their own reply: a file's "yes" never subscribes them again.
    expect(await consent("+447911234302")).toMatchObject({ consent_status: "unsubscribed", consent_source: null, opt_out_method: "keyword" });
    expect(await consent("+447911234303")).toMatchObject({ consent_status: "unsubscribed", consent_source: "import", opt_out_method: "import", opt_out_detail: "optin.csv" });
    expect(await consent("+447911234304")).toMatchObject({ consent_status: "unknown", consent_source: null });
    expect(await consent("+447911234305")).toMatchObject({ consent_status: "unknown" });
    expect(await rejected(job.id)).toContain('7,"consent: ""maybe"" is not one of the mapped values (?, no, yes); map it or leave the cell empty",+447911234306,maybe');

    // A later file subscribes the one the import unsubscribed, and leaves the subscribed one as it is on "?".
    const again = await importCsv("Phone,Opt-in\n+447911234303,yes\n+447911234301,?\n", { columns: optIn, permissionConfirmed: true });
    expect(again).toMatchObject({ updated: 1, unchanged: 1 });
    expect(await consent("+447911234303")).toMatchObject({ consent_status: "subscribed", opt_out_method: null });
    expect(await consent("+447911234301")).toMatchObject({ consent_status: "subscribed" });

    const audits = await queryRows<{ target_id: string; metadata: Record<string, unknown> }>(
      db,
      sql`select target_id, metadata from audit_events where workspace_id = ${workspaceId} and action = 'import.permission_confirmed' and target_id = ${job.id}`,
    );
    expect(audits).toEqual([{ target_id: job.id, metadata: { fileName: "optin.csv", consentColumn: "Opt-in", values: { yes: "subscribed", No: "unsubscribed", "?": "unknown" } } }]);
  });

  it("refuses a file whose header does not match the mapping, and a mapping that contradicts an attribute's type", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "x.csv", columns: CRM_COLUMNS }), actor);
    await expect(storeImportFile(db, workspaceId, job.id, chunks("Mobile,Name\n+447911234301,X\n"))).rejects.toMatchObject({ status: 422 });
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "awaiting_file", rowsRead: 0 });
    const retried = await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234301,X,,,,,\n"));
    expect(retried.rowsRead).toBe(1);
    await expect(storeImportFile(db, workspaceId, job.id, chunks(HEADER))).rejects.toMatchObject({ status: 409, code: "import_file_already_sent" });

    const conflicting = importOptionsSchema.parse({ fileName: "x.csv", columns: columns(["Phone", { type: "phone" }], ["Orders", { type: "attribute", key: "orders", attributeType: "string" }]) });
    await expect(createImport(db, workspaceId, conflicting, actor)).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ path: "columns[1].target.attributeType" })],
    });
  });

  it("stops at the size cap and keeps nothing of the partial file", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "big.csv", columns: CRM_COLUMNS }), actor);
    const big = HEADER + "+447911234401,X,,,,,\n".repeat(200);
    await expect(storeImportFile(db, workspaceId, job.id, chunks(big, 512), { limitBytes: 1024 })).rejects.toMatchObject({ status: 413 });
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "awaiting_file", rowsRead: 0 });
    const staged = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_import_rows where import_id = ${job.id}`);
    expect(staged[0]!.n).toBe(0);
  });

  it("resumes a stored file whose merge never finished, merging it exactly once", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "crash.csv", columns: CRM_COLUMNS }), actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234501,Crash,,,,,\n"));
    // The server died before the merge: nothing is merged yet, and a fresh job is not stale.
    expect(await recoverImport(db, workspaceId, job.id)).toBeNull();
    expect(await recoverImport(db, workspaceId, job.id, { staleMergeMs: 0 })).toBe("merge");
    await Promise.all([processImport(db, workspaceId, job.id), processImport(db, workspaceId, job.id)]);
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "completed", created: 1 });
    expect(await runImport(db, workspaceId, job.id)).toBeNull();
    expect(await recoverImport(db, workspaceId, job.id, { staleMergeMs: 0 })).toBeNull();
  });

  it.skipIf(isEmbedded())("never waits for, nor repeats, a merge that is running", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "busy.csv", columns: CRM_COLUMNS }), actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234701,Busy,,,,,\n"));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const merge = db.transaction(async (tx) => {
      await tx.execute(sql`select id from contact_imports where id = ${job.id} for update`);
      locked();
      await held;
    });
    await isLocked;
    const started = Date.now();
    expect(await recoverImport(db, workspaceId, job.id, { staleMergeMs: 0 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    release();
    await merge;
  });

  describe("when the process working on it is gone", () => {
    // An owner id whose lock no session holds: a process that was killed.
    const GONE = 2_000_000_001;

    it("takes its merge over at once, and this process becomes the owner", async () => {
      const db = await getDb();
      const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "killed.csv", columns: CRM_COLUMNS }), actor);
      await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234801,Killed,,,,,\n"));
      await db.execute(sql`update contact_imports set owner = ${GONE} where id = ${job.id}`);
      expect(await recoverImport(db, workspaceId, job.id)).toBe("merge");
      const [row] = await queryRows<{ owner: number }>(db, sql`select owner from contact_imports where id = ${job.id}`);
      expect(row!.owner).toBe(await claimOwnerFor(db).ensure());
      // Taken: a second reader does not resume it again.
      expect(await recoverImport(db, workspaceId, job.id)).toBeNull();
      await processImport(db, workspaceId, job.id);
      expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "completed", created: 1 });
    });

    it("gives its upload back to awaiting_file at once", async () => {
      const db = await getDb();
      const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "cut.csv", columns: CRM_COLUMNS }), actor);
      await db.execute(sql`update contact_imports set status = 'processing', rows_read = 10, owner = ${GONE} where id = ${job.id}`);
      // A row of the file it lost: deleted in the statement that gives the job back.
      await db.execute(sql`insert into contact_import_rows (import_id, row_number, phone) values (${job.id}, 2, '+447911234803')`);
      expect(await recoverImport(db, workspaceId, job.id)).toBe("reset");
      expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "awaiting_file", rowsRead: 0 });
      const [left] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_import_rows where import_id = ${job.id}`);
      expect(left!.n).toBe(0);
    });

    it.skipIf(isEmbedded())("leaves a job whose owner is alive in another process until it stalls", async () => {
      const db = await getDb();
      const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "alive.csv", columns: CRM_COLUMNS }), actor);
      await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234802,Alive,,,,,\n"));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another process's owner lock, held by another session.
      const other = db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_OWNER_LOCK_CLASS}, 777)`);
        locked();
        await released;
      });
      await isLocked;
      try {
        await db.execute(sql`update contact_imports set owner = 777 where id = ${job.id}`);
        expect(await recoverImport(db, workspaceId, job.id)).toBeNull();
        expect(await recoverImport(db, workspaceId, job.id, { staleMergeMs: 0 })).toBe("merge");
      } finally {
        release();
        await other;
      }
    });

    it("is resumed by the recovery job though nobody reads it, also across passes a deadline stops", async () => {
      const db = await getDb();
      const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "unread.csv", columns: CRM_COLUMNS }), actor);
      await storeImportFile(db, workspaceId, job.id, chunks(HEADER + Array.from({ length: 9 }, (_, i) => `+44791123490${i},Unread ${i},,,,,\n`).join("")));
      // A merge stopped by its deadline before its first range: given up, for the next pass.
      await processImport(db, workspaceId, job.id, { deadline: Date.now() });
      expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "processing", created: 0 });
      const [given] = await queryRows<{ owner: number | null }>(db, sql`select owner from contact_imports where id = ${job.id}`);
      expect(given!.owner).toBeNull();

      const cut = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "cut.csv", columns: CRM_COLUMNS }), actor);
      await db.execute(sql`update contact_imports set status = 'processing', rows_read = 3, owner = ${GONE} where id = ${cut.id}`);
      // Stale only after an hour: the jobs other tests of this file left are not this test's.
      const pass = () => recoverAbandonedImports(db, { deadline: Date.now() + 20_000, staleMergeMs: 3_600_000, staleUploadMs: 3_600_000 });
      expect(await pass()).toEqual({ resumed: 1, reset: 1 });
      expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "completed", created: 9 });
      expect(await getImport(db, workspaceId, cut.id)).toMatchObject({ status: "awaiting_file" });
      expect(await pass()).toEqual({ resumed: 0, reset: 0 });
    });
  });

  it("gives an abandoned upload back to awaiting_file", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "gone.csv", columns: CRM_COLUMNS }), actor);
    await db.execute(sql`update contact_imports set status = 'processing', rows_read = 10 where id = ${job.id}`);
    expect(await recoverImport(db, workspaceId, job.id, { staleUploadMs: 0 })).toBe("reset");
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "awaiting_file", rowsRead: 0 });
  });

  it("fails cleanly, merging nothing, when its list was deleted meanwhile", async () => {
    const db = await getDb();
    const [list] = await queryRows<{ id: string }>(db, sql`insert into contact_lists (id, workspace_id, name) values ('lst_gone1', ${workspaceId}, 'Gone') returning id`);
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "l.csv", columns: CRM_COLUMNS, listId: list!.id }), actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911234601,Nobody,,,,,\n"));
    await db.execute(sql`delete from contact_lists where id = 'lst_gone1'`);
    await processImport(db, workspaceId, job.id);
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "failed", error: expect.stringContaining("list"), created: 0 });
    expect(await contact("+447911234601")).toBeUndefined();
  });
  it("refuses a row holding a NUL character with its reason and imports the rest", async () => {
    let csv = HEADER;
    for (let i = 0; i < 200; i++) csv += `+4479112${String(50000 + i)},Row ${i},,,,,\n`;
    csv += "+447911260001,Bad\u0000Name,,,,,\n";
    csv += "+447911260002,Good,,,,,note with a \u0000 in a skipped column\n";
    csv += "+447911260003,Plan,gold\u0000,,,,\n";
    const job = await importCsv(csv);
    expect(job).toMatchObject({ status: "completed", rowsRead: 203, created: 201, invalid: 2, error: null });
    expect(await contact("+447911260002")).toMatchObject({ name: "Good" });
    expect(await contact("+447911260001")).toBeUndefined();
    const lines = (await rejected(job.id)).trim().split("\r\n");
    expect(lines.slice(1)).toEqual([
      '202,"name: contains a NUL character (U+0000), which cannot be stored",+447911260001,Bad\ufffdName,,,,,',
      '204,"plan: contains a NUL character (U+0000), which cannot be stored",+447911260003,Plan,gold\ufffd,,,,',
    ]);
  });

  it("refuses a header holding a NUL character, and a file that is not UTF-8 (with its line), keeping the job open for another upload", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "bad.csv", columns: CRM_COLUMNS }), actor);
    await expect(storeImportFile(db, workspaceId, job.id, chunks("Phone,Name,Plan,Orders,VIP,Since,No\u0000tes\n+447911260101,X,,,,,\n"))).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ path: "file.header", code: "invalid_characters" })],
    });
    // "Émilie" saved as Latin-1 on the third line; "Zoë" as UTF-8 on the second, cut by the chunks.
    const latin1 = new Uint8Array([...new TextEncoder().encode(HEADER + "+447911260102,Zoë,,,,,\n+447911260103,"), 0xc9, ...new TextEncoder().encode("milie,,,,,\n")]);
    for (const size of [1, 7, 4096]) {
      await expect(storeImportFile(db, workspaceId, job.id, byteChunks(latin1, size)), `chunks of ${size}`).rejects.toMatchObject({
        status: 422,
        detail: expect.stringContaining("not UTF-8 text (line 3)"),
        errors: [expect.objectContaining({ path: "file", code: "invalid_encoding" })],
      });
    }
    // A character cut off at the very end of the file.
    await expect(storeImportFile(db, workspaceId, job.id, byteChunks(new TextEncoder().encode(HEADER + "+447911260104,Zo\u00eb").slice(0, -1)))).rejects.toMatchObject({
      status: 422,
      detail: expect.stringContaining("line 2"),
    });
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "awaiting_file", rowsRead: 0 });
    const staged = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_import_rows where import_id = ${job.id}`);
    expect(staged[0]!.n).toBe(0);
    expect(await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911260102,Zoë,,,,,\n"))).toEqual({ rowsRead: 1, stored: true });
  });

  it("fails the job with its reason, keeping nothing, when the database refuses the staged rows", async () => {
    const db = await getDb();
    // A rule the staging table does not have, standing for any failure of the database while the file is stored.
    await db.execute(sql`alter table contact_import_rows add constraint staging_refuses_test check (name is distinct from 'Refused')`);
    try {
      const small = HEADER + "+447911260201,Fine,,,,,\n+447911260202,Refused,,,,,\n";
      // Larger than one COPY chunk: the refusal arrives while the rest is still being sent.
      const large = HEADER + "+447911260203,Refused,,,,,\n" + Array.from({ length: 6000 }, (_, i) => `+4479113${String(10000 + i)},Padding row number ${i} with some text,,,,,\n`).join("");
      for (const csv of [small, large]) {
        const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "refused.csv", columns: CRM_COLUMNS }), actor);
        expect(await storeImportFile(db, workspaceId, job.id, chunks(csv, 4096))).toMatchObject({ stored: false });
        const failed = await getImport(db, workspaceId, job.id);
        expect(failed).toMatchObject({ status: "failed", error: STORE_FAILED_REASON, created: 0 });
        expect(failed.finishedAt).not.toBeNull();
        const staged = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contact_import_rows where import_id = ${job.id}`);
        expect(staged[0]!.n).toBe(0);
        // Reading the job never restarts it, and another file is refused.
        expect(await recoverImport(db, workspaceId, job.id, { staleMergeMs: 0, staleUploadMs: 0 })).toBeNull();
        await expect(storeImportFile(db, workspaceId, job.id, chunks(HEADER))).rejects.toMatchObject({ status: 409 });
      }
    } finally {
      await db.execute(sql`alter table contact_import_rows drop constraint staging_refuses_test`);
    }
    expect(await contact("+447911260201")).toBeUndefined();
  });

  it("fails the merge, importing nothing, when fewer rows were staged than read", async () => {
    const db = await getDb();
    const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "lost.csv", columns: CRM_COLUMNS }), actor);
    await storeImportFile(db, workspaceId, job.id, chunks(HEADER + "+447911260301,Kept,,,,,\n+447911260302,Lost,,,,,\n"));
    await db.execute(sql`delete from contact_import_rows where import_id = ${job.id} and name = 'Lost'`);
    await processImport(db, workspaceId, job.id);
    expect(await getImport(db, workspaceId, job.id)).toMatchObject({ status: "failed", error: "Only 1 of the file's 2 rows were stored; nothing was imported. Create the import again.", created: 0 });
    expect(await contact("+447911260301")).toBeUndefined();
  });
  describe("in ranges", () => {
    /** A stored file, not merged yet. */
    async function stored(csv: string, options: Partial<ImportOptionsInput> = {}) {
      const db = await getDb();
      const job = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "ranges.csv", columns: CRM_COLUMNS, updateExisting: true, ...options }), actor);
      await storeImportFile(db, workspaceId, job.id, chunks(csv, 64));
      return job.id;
    }
    const phone = (n: number) => `+4479112380${String(n).padStart(2, "0")}`;
    const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(await getDb(), query))[0]!.n;
    const ranges = (id: string) => count(sql`select count(*)::int as n from contact_import_chunks where import_id = ${id}`);
    // Two at a time where the database can (the embedded one runs one transaction at a time).
    const connections = isEmbedded() ? 1 : 2;

    it("merges a large file range by range, to the report and contacts one transaction would give", async () => {
      const db = await getDb();
      await db.execute(sql`insert into contacts (id, workspace_id, phone_number, name, attributes) values
        ('ctc_range_same', ${workspaceId}, ${phone(3)}, 'Person 3', '{"plan":"gold","orders":3,"vip":true}'),
        ('ctc_range_diff', ${workspaceId}, ${phone(31)}, 'Old name', '{}')`);
      // 40 phones written out of order; the first row of phone 0 and of phone 39 come again later (the last row wins), plus an invalid row.
      const rows = Array.from({ length: 40 }, (_, i) => (i * 17) % 40).map((n) => `${phone(n)},Person ${n},gold,${n},yes,,\n`);
      const csv = HEADER + `${phone(0)},Early,bronze,,,,\n${phone(39)},Early,bronze,,,,\n` + rows.join("") + "4.41E+11,Excel,,,,,\n";
      const id = await stored(csv, { newListName: "In ranges" });
      const { db: counting, statements } = await countingDb();
      const counts = await runImport(counting, workspaceId, id, { chunkRows: 6, connections });
      // Each range inserted its own contacts (the two stored ones are in two of them).
      expect(statements.filter((statement) => /insert into contacts/i.test(statement)).length).toBeGreaterThanOrEqual(6);
      expect(counts).toEqual({ created: 38, updated: 1, unchanged: 1, duplicates: 2, invalid: 1 });
      const job = await getImport(db, workspaceId, id);
      expect(job).toMatchObject({ status: "completed", rowsRead: 43, created: 38, updated: 1, unchanged: 1, duplicates: 2, invalid: 1, error: null });
      expect(await ranges(id)).toBe(0);
      expect(await contact(phone(0))).toMatchObject({ name: "Person 0", attributes: { plan: "gold", orders: 0, vip: true } });
      expect(await contact(phone(31))).toMatchObject({ id: "ctc_range_diff", name: "Person 31" });
      expect(await count(sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId} and phone_number like '+4479112380%'`)).toBe(40);
      expect(await count(sql`select count(*)::int as n from contact_list_members where list_id = ${job.listId}`)).toBe(40);

      const again = await stored(csv, { newListName: "In ranges" });
      expect(await runImport(db, workspaceId, again, { chunkRows: 6, connections })).toEqual({ created: 0, updated: 0, unchanged: 40, duplicates: 2, invalid: 1 });
    });

    it("keeps the ranges merged before a failure, says so, and a merge resumed after a crash merges the rest exactly once", async () => {
      const db = await getDb();
      const rows = Array.from({ length: 20 }, (_, i) => `${phone(50 + i)},${i === 19 ? "Refused in range" : `Person ${i}`},,,,,\n`);
      const id = await stored(HEADER + rows.join(""));
      await db.execute(sql`alter table contacts add constraint contacts_refuse_range_test check (name is distinct from 'Refused in range')`);
      try {
        expect(await runImport(db, workspaceId, id, { chunkRows: 5, connections: 1 })).toBeNull();
      } finally {
        await db.execute(sql`alter table contacts drop constraint contacts_refuse_range_test`);
      }
      const failed = await getImport(db, workspaceId, id);
      const merged = await count(sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId} and phone_number between ${phone(50)} and ${phone(69)}`);
      expect(merged).toBeGreaterThan(0);
      expect(merged).toBeLessThan(20);
      expect(failed).toMatchObject({ status: "failed", created: merged, error: `The merge failed on the server; the ${merged} contacts merged before the failure were kept; import the file again to merge the rest.` });

      // A crash at the same point leaves the job processing with the same ranges merged: the resumed merge takes the rest.
      await db.execute(sql`update contact_imports set status = 'processing', error = null, finished_at = null where id = ${id}`);
      const { db: counting, statements } = await countingDb();
      // The report counts both runs: the ranges merged before the crash are not merged again (they would count as unchanged).
      expect(await runImport(counting, workspaceId, id, { chunkRows: 5, connections })).toEqual({ created: 20, updated: 0, unchanged: 0, duplicates: 0, invalid: 0 });
      expect(statements.filter((statement) => /insert into contacts/i.test(statement))).toHaveLength(1);
      expect(await getImport(db, workspaceId, id)).toMatchObject({ status: "completed", created: 20, unchanged: 0, duplicates: 0 });
      expect(await contact(phone(69))).toMatchObject({ name: "Refused in range" });
    });

    it.skipIf(isEmbedded())("waits for a range a dead merger's session still holds, then merges it, so the job completes without another recovery", async () => {
      const db = await getDb();
      const id = await stored(HEADER + Array.from({ length: 10 }, (_, i) => `${phone(40 + i)},Person ${i},,,,,\n`).join(""));
      // The plan a first merger made: two ranges, the second held by a session that has not ended yet.
      await db.execute(sql`insert into contact_import_chunks (import_id, chunk, phone_from, phone_to) values (${id}, 0, null, ${phone(45)}), (${id}, 1, ${phone(45)}, null)`);
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.execute(sql`select chunk from contact_import_chunks where import_id = ${id} and chunk = 1 for update`);
        holding();
        await released;
      });
      await held;
      try {
        const merging = runImport(db, workspaceId, id, { connections });
        const early = await Promise.race([merging.then(() => "ended" as const), new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 1000))]);
        expect(early).toBe("waiting");
        expect(await getImport(db, workspaceId, id)).toMatchObject({ status: "processing", created: 5 });
        release();
        expect(await merging).toEqual({ created: 10, updated: 0, unchanged: 0, duplicates: 0, invalid: 0 });
      } finally {
        release();
        await holder;
      }
      expect(await ranges(id)).toBe(0);
    });

    it.skipIf(isEmbedded())("leaves a phone another writer stores during the merge to that writer, and merges the rest of its range", async () => {
      const db = await getDb();
      const raced = (n: number) => `+4479112381${String(n).padStart(2, "0")}`;
      const id = await stored(HEADER + Array.from({ length: 5 }, (_, i) => `${raced(i)},Person ${i},,,,,\n`).join(""), { newListName: "Raced" });
      let written!: () => void;
      const writtenYet = new Promise<void>((resolve) => (written = resolve));
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      // Not committed when the merge reads the stored contacts: the merge counts the phone as new.
      const writer = db.transaction(async (tx) => {
        await tx.execute(sql`insert into contacts (id, workspace_id, phone_number, name) values ('ctc_raced_writer', ${workspaceId}, ${raced(2)}, 'Stored meanwhile')`);
        written();
        await committing;
      });
      await writtenYet;
      try {
        const merging = runImport(db, workspaceId, id, { connections: 1 });
        const waiting = sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into contacts%'`;
        await vi.waitUntil(async () => (await count(waiting)) > 0, { timeout: 10_000, interval: 20 });
        commit();
        await writer;
        expect(await merging).toEqual({ created: 4, updated: 0, unchanged: 1, duplicates: 0, invalid: 0 });
      } finally {
        commit();
        await writer;
      }
      expect(await contact(raced(2))).toMatchObject({ id: "ctc_raced_writer", name: "Stored meanwhile" });
      const job = await getImport(db, workspaceId, id);
      expect(job).toMatchObject({ status: "completed", created: 4, unchanged: 1 });
      expect(await count(sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId} and phone_number like '+4479112381%'`)).toBe(5);
      expect(await count(sql`select count(*)::int as n from contact_list_members where list_id = ${job.listId}`)).toBe(4);
    });

    it.skipIf(isEmbedded())("lets two merges of one job share its ranges, each range merged once, one completing the job", async () => {
      const db = await getDb();
      const id = await stored(HEADER + Array.from({ length: 30 }, (_, i) => `${phone(70 + i)},Person ${i},,,,,\n`).join(""));
      const results = await Promise.all([
        runImport(db, workspaceId, id, { chunkRows: 3, connections: 2 }),
        runImport(db, workspaceId, id, { chunkRows: 3, connections: 2 }),
      ]);
      expect(results.filter((result) => result !== null)).toEqual([{ created: 30, updated: 0, unchanged: 0, duplicates: 0, invalid: 0 }]);
      expect(await getImport(db, workspaceId, id)).toMatchObject({ status: "completed", created: 30, unchanged: 0, duplicates: 0 });
      expect(await count(sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId} and phone_number between ${phone(70)} and ${phone(99)}`)).toBe(30);
    });
  });

  it("refuses a row longer than the record cap with its reason, and reads the rows after it; a header over the cap is a 422", async () => {
    const long = `+447911260402,Long,,,,,${"n".repeat(MAX_RECORD_CHARS)}`;
    const job = await importCsv(HEADER + "+447911260401,Before,,,,,\n" + long + "\n+447911260403,After,,,,,\n");
    expect(job).toMatchObject({ status: "completed", rowsRead: 3, created: 2, invalid: 1 });
    expect(await contact("+447911260403")).toMatchObject({ name: "After" });
    expect(await contact("+447911260402")).toBeUndefined();
    expect((await rejected(job.id)).trim().split("\r\n").slice(1)).toEqual(['3,"row: longer than 65,536 characters"']);

    const rest = Array.from({ length: 3000 }, (_, i) => `+4479112${String(70000 + i)},Swallowed,,,,,\n`).join("");
    const unclosed = await importCsv(HEADER + "+447911260405,Before,,,,,\n" + '+447911260406,"Open quote,,,,,\n' + rest);
    expect(unclosed).toMatchObject({ status: "completed", rowsRead: 2, created: 1, invalid: 1 });
    expect((await rejected(unclosed.id)).trim().split("\r\n").slice(1)).toEqual([
      '3,"row: longer than 65,536 characters; a quote opened in it is never closed, so it runs to the end of the file"',
    ]);

    const db = await getDb();
    const wide = await createImport(db, workspaceId, importOptionsSchema.parse({ fileName: "wide.csv", columns: CRM_COLUMNS }), actor);
    await expect(storeImportFile(db, workspaceId, wide.id, chunks(`${HEADER.trim()},${"h".repeat(MAX_RECORD_CHARS)}\n+447911260404,X,,,,,\n`, 4096))).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ path: "file.header", code: "record_too_long" })],
    });
  });
});
