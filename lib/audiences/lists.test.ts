import { describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb, isEmbedded } from "@/db";
import { contactLists, contacts } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { countAudience, audienceContactsSql } from "./audience";
import { addListMembers, createList, deleteList, getList, listLists, membershipSchema, removeListMembers, updateList } from "./lists";
import { createSegment } from "./segments";
import { queryRows } from "@/db/rows";

async function insertContacts(workspaceId: string, people: { phone: string; city?: string; optedOut?: boolean }[]): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .insert(contacts)
    .values(
      people.map((p) => ({
        id: newId("ctc"),
        workspaceId,
        phoneNumber: p.phone,
        attributes: p.city ? { city: p.city } : {},
        optedOutAt: p.optedOut ? new Date() : null,
        optOutMethod: p.optedOut ? ("manual" as const) : null,
        consentStatus: p.optedOut ? ("unsubscribed" as const) : ("unknown" as const),
      })),
    )
    .returning({ id: contacts.id });
  return rows.map((r) => r.id);
}

describe("lists", () => {
  it("create, rename, list and delete; names unique per workspace", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const vip = await createList(db, workspaceId, { name: "  VIP " });
    expect(vip).toMatchObject({ object: "list", name: "VIP", contactCount: 0 });
    await expect(createList(db, workspaceId, { name: "VIP" })).rejects.toMatchObject({ code: "list_name_taken", status: 409 });
    const other = await createList(db, workspaceId, { name: "Other" });
    await expect(updateList(db, workspaceId, other.id, { name: "VIP" })).rejects.toMatchObject({ code: "list_name_taken" });
    expect((await updateList(db, workspaceId, other.id, { name: "Gold" })).name).toBe("Gold");
    const page = await listLists(db, workspaceId, { limit: 1 });
    expect(page.data.map((l) => l.name)).toEqual(["Gold"]);
    expect((await listLists(db, workspaceId, { limit: 1, cursor: page.nextCursor! })).data.map((l) => l.name)).toEqual(["VIP"]);
    await deleteList(db, workspaceId, other.id);
    await expect(getList(db, workspaceId, other.id)).rejects.toMatchObject({ code: "not_found" });
    // Another workspace may use the same name, and cannot see or touch this list.
    const stranger = await createTestAccount();
    expect((await createList(db, stranger.workspaceId, { name: "VIP" })).name).toBe("VIP");
    await expect(getList(db, stranger.workspaceId, vip.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteList(db, stranger.workspaceId, vip.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await getList(db, workspaceId, vip.id)).name).toBe("VIP");
  });

  it("adds and removes members by id and phone, reporting unknown ones and counting only real changes", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const stranger = await createTestAccount();
    const [a, b, c] = await insertContacts(workspaceId, [{ phone: "+14155550001" }, { phone: "+14155550002" }, { phone: "+14155550003" }]);
    const [foreign] = await insertContacts(stranger.workspaceId, [{ phone: "+14155550009" }]);
    const list = await createList(db, workspaceId, { name: "Members" });
    const added = await addListMembers(db, workspaceId, list.id, { contactIds: [a!, foreign!, "ctc_missing"], phones: ["+14155550002", "+14155550009"] });
    expect(added).toEqual({ listId: list.id, changed: 2, unknownContactIds: [foreign, "ctc_missing"], unknownPhones: ["+14155550009"], contactCount: 2 });
    const again = await addListMembers(db, workspaceId, list.id, { contactIds: [a!, c!] });
    expect(again).toMatchObject({ changed: 1, contactCount: 3 });
    const removed = await removeListMembers(db, workspaceId, list.id, { phones: ["+14155550001", "+14155550008"], contactIds: [b!] });
    expect(removed).toMatchObject({ changed: 2, unknownPhones: ["+14155550008"], contactCount: 1 });
    expect((await getList(db, workspaceId, list.id)).contactCount).toBe(1);
    await expect(addListMembers(db, stranger.workspaceId, list.id, { contactIds: [foreign!] })).rejects.toMatchObject({ code: "not_found" });
  });

  it.skipIf(isEmbedded())("answers 404, not a database error, when the list is deleted while members are being added", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const [a] = await insertContacts(workspaceId, [{ phone: "+14155550101" }]);
    const list = await createList(db, workspaceId, { name: "Going" });
    let deleted!: () => void;
    const deletedYet = new Promise<void>((resolve) => (deleted = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const deleting = db.transaction(async (tx) => {
      await tx.delete(contactLists).where(eq(contactLists.id, list.id));
      deleted();
      await committing;
    });
    await deletedYet;
    try {
      // The list is still there for the add's reads; its insert then waits on the deleting transaction.
      const adding = addListMembers(db, workspaceId, list.id, { contactIds: [a!] }).then(() => null, (error: unknown) => error);
      const waiting = sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%contact_list_members%'`;
      await vi.waitUntil(async () => (await queryRows<{ n: number }>(db, waiting))[0]!.n > 0, { timeout: 10_000, interval: 20 });
      commit();
      expect(await adding).toMatchObject({ code: "not_found" });
    } finally {
      commit();
      await deleting;
    }
  });

  it("membership bodies: at least one id or phone, at most 1,000, phones in E.164", () => {
    expect(membershipSchema.safeParse({}).success).toBe(false);
    expect(membershipSchema.safeParse({ contactIds: [] }).success).toBe(false);
    expect(membershipSchema.safeParse({ phones: ["4155550001"] }).success).toBe(false);
    expect(membershipSchema.safeParse({ contactIds: Array.from({ length: 600 }, (_, i) => `ctc_${i}`), phones: Array.from({ length: 401 }, () => "+14155550001") }).success).toBe(false);
    expect(membershipSchema.safeParse({ contactIds: Array.from({ length: 1000 }, (_, i) => `ctc_${i}`) }).success).toBe(true);
  });
});

describe("audiences", () => {
  it("the union of lists and segments, each contact once, opted-out contacts never", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const stranger = await createTestAccount();
    const [ana, bruno, carla] = await insertContacts(workspaceId, [
      { phone: "+351910000001", city: "Lisbon" },
      { phone: "+351910000002", city: "Porto" },
      { phone: "+351910000003", city: "Lisbon", optedOut: true },
      { phone: "+351910000004", city: "Faro" },
    ]);
    await insertContacts(stranger.workspaceId, [{ phone: "+351910000001", city: "Lisbon" }]);
    const list = await createList(db, workspaceId, { name: "Picked" });
    await addListMembers(db, workspaceId, list.id, { contactIds: [ana!, bruno!, carla!] });
    const segment = await createSegment(db, workspaceId, { name: "Lisbon", filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Lisbon" }] } });
    expect(segment.contactCount).toBe(2);

    const rows = await queryRows<{ id: string; phone_number: string }>(db, await audienceContactsSql(db, workspaceId, { listIds: [list.id], segmentIds: [segment.id] }));
    expect(rows.map((r) => r.phone_number).sort()).toEqual(["+351910000001", "+351910000002"]);
    expect(await countAudience(db, workspaceId, { segmentIds: [segment.id] })).toBe(1);
    expect(await countAudience(db, workspaceId, { listIds: [list.id, list.id] })).toBe(2);
    await expect(countAudience(db, stranger.workspaceId, { listIds: [list.id] })).rejects.toMatchObject({ code: "not_found" });
    await expect(countAudience(db, stranger.workspaceId, { segmentIds: [segment.id] })).rejects.toMatchObject({ code: "not_found" });
    await expect(countAudience(db, workspaceId, {})).rejects.toMatchObject({ code: "validation_failed" });
  });
});
