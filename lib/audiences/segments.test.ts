import { eq, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts, messages, type MessageStatus } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow } from "@/lib/testing/logs-factories";
import { addListMembers, createList } from "./lists";
import {
  compileSegmentFilter,
  countSegmentFilter,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  segmentFilterSchema,
  updateSegment,
  type SegmentCondition,
  type SegmentFilter,
} from "./segments";

interface Seed {
  phone: string;
  attributes?: Record<string, unknown>;
  optedOut?: boolean;
  subscribed?: boolean;
  createdAt?: Date;
  messages?: { status: MessageStatus; at: Date }[];
}

const PEOPLE: Record<string, Seed> = {
  ana: {
    phone: "+351910000001",
    attributes: { city: "Lisbon", points: 150, vip: true, birthday: "1990-05-01", note: "100% sure_thing" },
    subscribed: true,
    createdAt: new Date("2026-01-10T10:00:00Z"),
    messages: [
      { status: "failed", at: new Date("2026-02-01T10:00:00Z") },
      { status: "delivered", at: new Date("2026-02-02T10:00:00Z") },
    ],
  },
  bruno: {
    phone: "+351910000002",
    attributes: { city: "Porto", points: "lots", vip: false, birthday: "not a date" },
    createdAt: new Date("2026-01-15T10:00:00Z"),
    messages: [
      { status: "delivered", at: new Date("2026-02-01T10:00:00Z") },
      { status: "failed", at: new Date("2026-02-03T10:00:00Z") },
    ],
  },
  carla: {
    phone: "+351910000003",
    attributes: { city: "lisbon", points: 99.5, birthday: "2001-12-31", note: "" },
    optedOut: true,
    createdAt: new Date("2026-01-20T23:59:59Z"),
    messages: [{ status: "sending", at: new Date("2026-02-04T10:00:00Z") }],
  },
  dora: { phone: "+351910000004", attributes: { points: null, city: 7 }, createdAt: new Date("2026-01-21T00:00:00Z") },
  elena: { phone: "+351910000005", attributes: { city: "  LISBON\t", note: "Äpfel und Birnen" }, subscribed: true, createdAt: new Date("2026-01-22T00:00:00Z") },
};

let workspaceId: string;
let listId: string;
let otherListId: string;

async function seed(workspaceId: string): Promise<Record<string, string>> {
  const db = await getDb();
  const campaign = await insertCampaignRow(workspaceId);
  const ids: Record<string, string> = {};
  for (const [key, person] of Object.entries(PEOPLE)) {
    const id = newId("ctc");
    ids[key] = id;
    await db.insert(contacts).values({
      id,
      workspaceId,
      phoneNumber: person.phone,
      name: key,
      attributes: person.attributes ?? {},
      optedOutAt: person.optedOut ? new Date() : null,
      optOutMethod: person.optedOut ? "manual" : null,
      consentStatus: person.optedOut ? "unsubscribed" : person.subscribed ? "subscribed" : "unknown",
      consentSource: person.optedOut ? "manual" : person.subscribed ? "api" : null,
      consentAt: person.optedOut || person.subscribed ? new Date() : null,
      createdAt: person.createdAt,
    });
    for (const message of person.messages ?? []) {
      await db.insert(messages).values({
        id: newId("msg"),
        workspaceId,
        campaignId: campaign.id,
        contactId: id,
        phoneNumber: person.phone,
        templateName: "t",
        templateLanguage: "en",
        renderedText: "Hi",
        status: message.status,
        createdAt: message.at,
      });
    }
  }
  return ids;
}

async function matching(conditions: SegmentCondition[], match: "all" | "any" = "all"): Promise<string[]> {
  const db = await getDb();
  const filter = segmentFilterSchema.parse({ match, conditions });
  const rows = (await db.execute(
    sql`select c.name from contacts c where c.workspace_id = ${workspaceId} and ${compileSegmentFilter(filter)} order by c.name`,
  )) as unknown;
  const list = (Array.isArray(rows) ? rows : (rows as { rows: { name: string }[] }).rows) as { name: string }[];
  expect(await countSegmentFilter(db, workspaceId, filter)).toBe(list.length);
  return list.map((row) => row.name);
}

beforeAll(async () => {
  const account = await createTestAccount();
  workspaceId = account.workspaceId;
  const ids = await seed(workspaceId);
  const db = await getDb();
  listId = (await createList(db, workspaceId, { name: "Lisbon" })).id;
  otherListId = (await createList(db, workspaceId, { name: "Empty" })).id;
  await addListMembers(db, workspaceId, listId, { contactIds: [ids.ana!, ids.carla!] });
  // Another workspace with look-alike data must never be counted.
  const other = await createTestAccount();
  await seed(other.workspaceId);
});

describe("segment filters", () => {
  it("attribute equals / not_equals match the exact JSON value and type", async () => {
    expect(await matching([{ field: "attribute", key: "city", op: "equals", value: "Lisbon", matchCase: true }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "vip", op: "equals", value: false }])).toEqual(["bruno"]);
    expect(await matching([{ field: "attribute", key: "points", op: "equals", value: 150 }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "points", op: "equals", value: "150" }])).toEqual([]);
    expect(await matching([{ field: "attribute", key: "city", op: "not_equals", value: "Lisbon", matchCase: true }])).toEqual(["bruno", "carla", "dora", "elena"]);
  });

  it("text conditions ignore case and surrounding white space unless they match case", async () => {
    const city = (op: "equals" | "not_equals" | "contains" | "starts_with", value: string | number, matchCase?: boolean): SegmentCondition =>
      ({ field: "attribute", key: "city", op, value, ...(matchCase === undefined ? {} : { matchCase }) }) as SegmentCondition;
    expect(await matching([city("equals", "Lisbon")])).toEqual(["ana", "carla", "elena"]);
    expect(await matching([city("equals", " lisbon ")])).toEqual(["ana", "carla", "elena"]);
    expect(await matching([city("equals", "lisbon", true)])).toEqual(["carla"]);
    expect(await matching([city("not_equals", "LISBON")])).toEqual(["bruno", "dora"]);
    expect(await matching([city("not_equals", "lisbon", true)])).toEqual(["ana", "bruno", "dora", "elena"]);
    expect(await matching([city("contains", "ISB")])).toEqual(["ana", "carla", "elena"]);
    expect(await matching([city("contains", "ISB", true)])).toEqual(["elena"]);
    expect(await matching([city("starts_with", " lis")])).toEqual(["ana", "carla", "elena"]);
    expect(await matching([city("starts_with", "Lis", true)])).toEqual(["ana"]);
    expect(await matching([city("starts_with", "isbon")])).toEqual([]);
    // Letters beyond ASCII fold too, and a number still equals only the number.
    expect(await matching([{ field: "attribute", key: "note", op: "starts_with", value: "äPFEL" }])).toEqual(["elena"]);
    expect(await matching([city("equals", 7)])).toEqual(["dora"]);
    expect(await matching([city("equals", "7")])).toEqual([]);
  });

  it("contains is case-insensitive and treats % and _ literally", async () => {
    expect(await matching([{ field: "attribute", key: "city", op: "contains", value: "LIS" }])).toEqual(["ana", "carla", "elena"]);
    expect(await matching([{ field: "attribute", key: "note", op: "contains", value: "0% s" }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "note", op: "contains", value: "_" }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "city", op: "contains", value: "%" }])).toEqual([]);
    expect(await matching([{ field: "attribute", key: "city", op: "contains", value: "7" }])).toEqual(["dora"]);
  });

  it("is_set / is_not_set: null and empty text count as not set", async () => {
    expect(await matching([{ field: "attribute", key: "note", op: "is_set" }])).toEqual(["ana", "elena"]);
    expect(await matching([{ field: "attribute", key: "note", op: "is_not_set" }])).toEqual(["bruno", "carla", "dora"]);
    expect(await matching([{ field: "attribute", key: "points", op: "is_set" }])).toEqual(["ana", "bruno", "carla"]);
    expect(await matching([{ field: "attribute", key: "points", op: "is_not_set" }])).toEqual(["dora", "elena"]);
  });

  it("number comparisons only match numbers: text and null never match and never fail", async () => {
    expect(await matching([{ field: "attribute", key: "points", op: "gt", value: 99.5 }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "points", op: "gte", value: 99.5 }])).toEqual(["ana", "carla"]);
    expect(await matching([{ field: "attribute", key: "points", op: "lt", value: 150 }])).toEqual(["carla"]);
    expect(await matching([{ field: "attribute", key: "points", op: "lte", value: 150 }])).toEqual(["ana", "carla"]);
    expect(await matching([{ field: "attribute", key: "city", op: "gt", value: 0 }])).toEqual(["dora"]);
  });

  it("date comparisons only match YYYY-MM-DD text", async () => {
    expect(await matching([{ field: "attribute", key: "birthday", op: "before", value: "2000-01-01" }])).toEqual(["ana"]);
    expect(await matching([{ field: "attribute", key: "birthday", op: "after", value: "1990-05-01" }])).toEqual(["carla"]);
  });

  it("list in / not_in", async () => {
    expect(await matching([{ field: "list", op: "in", listId }])).toEqual(["ana", "carla"]);
    expect(await matching([{ field: "list", op: "not_in", listId }])).toEqual(["bruno", "dora", "elena"]);
    expect(await matching([{ field: "list", op: "in", listId: otherListId }])).toEqual([]);
  });

  it("opted out true / false", async () => {
    expect(await matching([{ field: "opted_out", value: true }])).toEqual(["carla"]);
    expect(await matching([{ field: "opted_out", value: false }])).toEqual(["ana", "bruno", "dora", "elena"]);
  });

  it("consent is / is not subscribed, unknown, unsubscribed", async () => {
    expect(await matching([{ field: "consent", op: "equals", value: "subscribed" }])).toEqual(["ana", "elena"]);
    expect(await matching([{ field: "consent", op: "equals", value: "unknown" }])).toEqual(["bruno", "dora"]);
    expect(await matching([{ field: "consent", op: "equals", value: "unsubscribed" }])).toEqual(["carla"]);
    expect(await matching([{ field: "consent", op: "not_equals", value: "subscribed" }])).toEqual(["bruno", "carla", "dora"]);
    expect(await matching([{ field: "consent", op: "equals", value: "unknown" }, { field: "consent", op: "equals", value: "subscribed" }], "any")).toEqual(["ana", "bruno", "dora", "elena"]);
    expect(segmentFilterSchema.safeParse({ match: "all", conditions: [{ field: "consent", op: "equals", value: "yes" }] }).success).toBe(false);
  });

  it("created_at before / after: a date covers its whole UTC day, a date-time is exact", async () => {
    expect(await matching([{ field: "created_at", op: "before", value: "2026-01-15" }])).toEqual(["ana"]);
    expect(await matching([{ field: "created_at", op: "after", value: "2026-01-20" }])).toEqual(["dora", "elena"]);
    expect(await matching([{ field: "created_at", op: "after", value: "2026-01-20T23:59:58Z" }])).toEqual(["carla", "dora", "elena"]);
    expect(await matching([{ field: "created_at", op: "before", value: "2026-01-15T10:00:00.001+00:00" }])).toEqual(["ana", "bruno"]);
  });

  it("last message status compares the newest message only; `queued` covers messages being sent", async () => {
    expect(await matching([{ field: "last_message_status", op: "equals", value: "delivered" }])).toEqual(["ana"]);
    expect(await matching([{ field: "last_message_status", op: "equals", value: "failed" }])).toEqual(["bruno"]);
    expect(await matching([{ field: "last_message_status", op: "equals", value: "queued" }])).toEqual(["carla"]);
    expect(await matching([{ field: "last_message_status", op: "not_equals", value: "failed" }])).toEqual(["ana", "carla", "dora", "elena"]);
  });

  it("match all / any, and no conditions selects everyone", async () => {
    const lisbon: SegmentCondition = { field: "attribute", key: "city", op: "contains", value: "lisbon" };
    const optedIn: SegmentCondition = { field: "opted_out", value: false };
    expect(await matching([lisbon, optedIn], "all")).toEqual(["ana", "elena"]);
    expect(await matching([lisbon, optedIn], "any")).toEqual(["ana", "bruno", "carla", "dora", "elena"]);
    expect(await matching([], "all")).toEqual(["ana", "bruno", "carla", "dora", "elena"]);
    expect(await matching([], "any")).toEqual(["ana", "bruno", "carla", "dora", "elena"]);
  });

  it("values travel as parameters: quotes and SQL in a value are just text", async () => {
    const filter = segmentFilterSchema.parse({ match: "all", conditions: [{ field: "attribute", key: "city", op: "contains", value: "'); drop table contacts; --" }] });
    expect(await countSegmentFilter(await getDb(), workspaceId, filter)).toBe(0);
    const query = new PgDialect().sqlToQuery(compileSegmentFilter(filter));
    expect(query.sql).not.toContain("drop table");
    expect(query.params).toContain("'); drop table contacts; --");
  });

  it("refuses values that do not fit the operator", () => {
    const bad: unknown[] = [
      { field: "attribute", key: "points", op: "gt", value: "10" },
      { field: "attribute", key: "points", op: "equals" },
      { field: "attribute", key: "points", op: "is_set", value: 1 },
      { field: "attribute", key: "birthday", op: "before", value: "2026-02-30" },
      { field: "attribute", key: "bad key", op: "equals", value: 1 },
      { field: "attribute", key: "city", op: "contains", value: "" },
      { field: "attribute", key: "city", op: "starts_with", value: "  " },
      { field: "attribute", key: "points", op: "gt", value: 1, matchCase: true },
      { field: "created_at", op: "before", value: "yesterday" },
      { field: "last_message_status", op: "equals", value: "bounced" },
      { field: "phone", op: "equals", value: "+1" },
    ];
    for (const condition of bad) {
      expect(segmentFilterSchema.safeParse({ match: "all", conditions: [condition] }).success, JSON.stringify(condition)).toBe(false);
    }
  });

  it("match-case and number equals conditions are served by the GIN index on the folded attributes", async () => {
    const db = await getDb();
    const filter = segmentFilterSchema.parse({
      match: "any",
      conditions: [
        { field: "attribute", key: "city", op: "equals", value: "Lisbon", matchCase: true },
        { field: "attribute", key: "points", op: "equals", value: 150 },
      ],
    });
    const plan = await db.transaction(async (tx) => {
      // Tiny tables favour a sequential scan; forbid it so the plan shows whether the index can serve the condition.
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(sql`explain select count(*) from contacts c where ${compileSegmentFilter(filter)}`)) as unknown;
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
      return rows.map((row) => Object.values(row)[0]).join("\n");
    });
    expect(plan.match(/Bitmap Index Scan on contacts_attributes_folded_idx/g)).toHaveLength(2);
    expect(plan).not.toMatch(/Seq Scan/);
  });

  it("a case-insensitive equals is served by the GIN index on the folded attributes", async () => {
    const db = await getDb();
    const filter = segmentFilterSchema.parse({ match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: " lisbon" }] });
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(sql`explain select count(*) from contacts c where ${compileSegmentFilter(filter)}`)) as unknown;
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
      return rows.map((row) => Object.values(row)[0]).join("\n");
    });
    expect(plan).toMatch(/contacts_attributes_folded_idx/);
    // The index's recheck reads the stored folded copy rather than folding each candidate row again.
    expect(plan).toMatch(/attributes_folded @>/);
    expect(plan).not.toMatch(/ss_fold_attributes/);
  });

  it("the stored folded copy follows every write of the attributes", async () => {
    const db = await getDb();
    const own = (await createTestAccount()).workspaceId;
    const id = newId("ctc");
    await db.insert(contacts).values({ id, workspaceId: own, phoneNumber: "+351910000009", attributes: { city: "Porto" } });
    const count = (value: string) =>
      countSegmentFilter(db, own, segmentFilterSchema.parse({ match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value }] }));
    expect(await count("PORTO")).toBe(1);
    await db.update(contacts).set({ attributes: { city: " Faro " } }).where(eq(contacts.id, id));
    expect(await count("porto")).toBe(0);
    expect(await count("faro")).toBe(1);
  });
});

describe("saved segments", () => {
  const filter: SegmentFilter = { match: "all", conditions: [{ field: "attribute", key: "city", op: "contains", value: "lisbon" }] };

  it("create, get, list, update and delete, each with a live count", async () => {
    const db = await getDb();
    const created = await createSegment(db, workspaceId, { name: "Lisboetas", filter });
    expect(created).toMatchObject({ object: "segment", name: "Lisboetas", filter, contactCount: 3 });
    expect(await getSegment(db, workspaceId, created.id)).toEqual(created);
    const page = await listSegments(db, workspaceId, {});
    expect(page.data.map((s) => s.id)).toContain(created.id);
    const updated = await updateSegment(db, workspaceId, created.id, { filter: { match: "all", conditions: [...filter.conditions, { field: "opted_out", value: false }] } });
    expect(updated.contactCount).toBe(2);
    expect(updated.name).toBe("Lisboetas");
    await deleteSegment(db, workspaceId, created.id);
    await expect(getSegment(db, workspaceId, created.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("names are unique per workspace (409), list conditions must name a list of the workspace (422)", async () => {
    const db = await getDb();
    await createSegment(db, workspaceId, { name: "Unique", filter });
    await expect(createSegment(db, workspaceId, { name: "Unique", filter })).rejects.toMatchObject({ code: "segment_name_taken", status: 409 });
    const second = await createSegment(db, workspaceId, { name: "Second", filter });
    await expect(updateSegment(db, workspaceId, second.id, { name: "Unique" })).rejects.toMatchObject({ code: "segment_name_taken" });
    const other = await createTestAccount();
    expect((await createSegment(db, other.workspaceId, { name: "Unique", filter })).contactCount).toBe(0);
    const foreignList = await createList(db, other.workspaceId, { name: "Theirs" });
    const error = await createSegment(db, workspaceId, { name: "Foreign", filter: { match: "all", conditions: [{ field: "list", op: "in", listId: foreignList.id }] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors).toEqual([expect.objectContaining({ path: "filter.conditions[0].listId", code: "unknown_list" })]);
  });

  it("paginates with a cursor", async () => {
    const db = await getDb();
    const account = await createTestAccount();
    for (const name of ["a", "b", "c"]) await createSegment(db, account.workspaceId, { name, filter });
    const first = await listSegments(db, account.workspaceId, { limit: 2 });
    expect(first.data.map((s) => s.name)).toEqual(["c", "b"]);
    const second = await listSegments(db, account.workspaceId, { limit: 2, cursor: first.nextCursor! });
    expect(second.data.map((s) => s.name)).toEqual(["a"]);
    expect(second.nextCursor).toBeNull();
  });
});
