import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, isEmbedded } from "@/db";
import { queryRows } from "@/db/rows";
import { contactListMembers, contactLists, contacts, messages, workspaces } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestCampaign, createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";

describe("messages' keys", () => {
  it("refuses a message whose workspace is not its campaign's", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    const campaignOfA = await createTestCampaign(a.workspaceId);
    await expect(createTestMessage({ workspaceId: b.workspaceId, campaignId: campaignOfA })).rejects.toThrow();
    const id = await createTestMessage({ workspaceId: a.workspaceId, campaignId: campaignOfA });
    expect(await getTestMessage(id)).toMatchObject({ workspaceId: a.workspaceId, campaignId: campaignOfA });
  });

  it("goes with its workspace (through its campaign)", async () => {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId });
    const db = await getDb();
    await db.delete(workspaces).where(eq(workspaces.id, account.workspaceId));
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.id, id))).toHaveLength(0);
  });

  it("keeps queued messages (no wamid yet) out of the wamid index, and a wamid unique", async () => {
    const account = await createTestAccount();
    const wamid = `wamid.INTEGRITY${Date.now()}`;
    await createTestMessage({ workspaceId: account.workspaceId });
    await createTestMessage({ workspaceId: account.workspaceId });
    await createTestMessage({ workspaceId: account.workspaceId, status: "sent", providerMessageId: wamid });
    await expect(createTestMessage({ workspaceId: account.workspaceId, status: "sent", providerMessageId: wamid })).rejects.toThrow();
    const db = await getDb();
    const [index] = await queryRows<{ definition: string }>(db, sql`select indexdef as definition from pg_indexes where indexname = 'messages_wamid_idx'`);
    expect(index?.definition).toMatch(/WHERE \(wamid IS NOT NULL\)/);
  });
});

describe("a membership's key to its list (checked once per statement, migration 0043)", () => {
  async function setUp() {
    const account = await createTestAccount();
    const db = await getDb();
    const contactIds = [newId("ctc"), newId("ctc"), newId("ctc")];
    await db.insert(contacts).values(contactIds.map((id, i) => ({ id, workspaceId: account.workspaceId, phoneNumber: `+35191000${1000 + i}` })));
    const listId = newId("lst");
    await db.insert(contactLists).values({ id: listId, workspaceId: account.workspaceId, name: "Keys" });
    await db.insert(contactListMembers).values(contactIds.map((contactId) => ({ listId, contactId })));
    return { db, workspaceId: account.workspaceId, contactIds, listId };
  }

  /** The SQLSTATE of a failed statement on either driver (drizzle wraps the driver's error as its cause). */
  async function failureCode(statement: Promise<unknown>): Promise<string | undefined> {
    const error = await statement.then(() => null, (e: unknown) => e);
    const found = error as { code?: string; cause?: { code?: string } } | null;
    return found?.code ?? found?.cause?.code;
  }

  it("refuses a membership of a list that does not exist", async () => {
    const { db, contactIds, listId } = await setUp();
    const code = await failureCode(db.insert(contactListMembers).values([{ listId: "lst_missing", contactId: contactIds[0]! }]));
    expect(code).toBe("23503");
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, listId))).toHaveLength(3);
  });

  it("refuses to move a membership to another list or to change a list's id", async () => {
    const { db, contactIds, listId } = await setUp();
    const other = await setUp();
    expect(await failureCode(db.update(contactListMembers).set({ listId: other.listId }).where(eq(contactListMembers.listId, listId)))).toBe("23503");
    expect(await failureCode(db.update(contactLists).set({ id: "lst_renamed" }).where(eq(contactLists.id, other.listId)))).toBe("23503");
    // Updates that leave the keys alone are not checked.
    await db.update(contactLists).set({ name: "Renamed" }).where(eq(contactLists.id, listId));
    await db.update(contactListMembers).set({ contactId: contactIds[0]! }).where(eq(contactListMembers.contactId, contactIds[0]!));
  });

  it("a deleted list takes its memberships and leaves the contacts; a deleted workspace takes its lists' memberships", async () => {
    const { db, workspaceId, contactIds, listId } = await setUp();
    const other = await setUp();
    const secondList = newId("lst");
    await db.insert(contactLists).values({ id: secondList, workspaceId, name: "Second" });
    await db.insert(contactListMembers).values(contactIds.map((contactId) => ({ listId: secondList, contactId })));

    await db.delete(contactLists).where(eq(contactLists.id, listId));
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, listId))).toHaveLength(0);
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, secondList))).toHaveLength(3);
    expect(await db.select({ id: contacts.id }).from(contacts).where(inArray(contacts.id, contactIds))).toHaveLength(3);

    await db.delete(workspaces).where(eq(workspaces.id, workspaceId));
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, secondList))).toHaveLength(0);
    // Another workspace's rows stay.
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, other.listId))).toHaveLength(3);
  });

  it.skipIf(isEmbedded())("a list deleted while a membership is being added waits for that transaction, then takes the membership along", async () => {
    const { db, workspaceId, listId } = await setUp();
    const added = newId("ctc");
    await db.insert(contacts).values({ id: added, workspaceId, phoneNumber: "+351910009100" });
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const adding = db.transaction(async (tx) => {
      await tx.insert(contactListMembers).values({ listId, contactId: added });
      inserted();
      await finishing;
    });
    await insertedYet;
    const deleting = Promise.resolve(db.delete(contactLists).where(eq(contactLists.id, listId))).then(() => "deleted" as const);
    let waited: "deleted" | "waiting";
    try {
      waited = await Promise.race([deleting, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 500))]);
    } finally {
      // The inserting transaction ends whatever the race found, so a failed expectation does not leave it open.
      finish();
      await adding;
    }
    expect(waited).toBe("waiting");
    expect(await deleting).toBe("deleted");
    expect(await db.select().from(contactListMembers).where(eq(contactListMembers.listId, listId))).toHaveLength(0);
  });
});
