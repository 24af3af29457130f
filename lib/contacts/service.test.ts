import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "@/db";
import { auditEvents, contacts, messages, type MessageStatus } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/service";
import { addListMembers, createList } from "@/lib/audiences/lists";
import { listContacts } from "@/lib/audiences/contact-list";
import { createSegment } from "@/lib/audiences/segments";
import { newId } from "@/lib/crypto/random";
import { listContactMessages } from "@/lib/inbound/timeline";
import { createTestAccount } from "@/lib/testing/factories";
import { insertCampaignRow } from "@/lib/testing/logs-factories";
import type { Actor } from "@/lib/workspaces";
import { defineAttribute } from "./attributes";
import { createContactSchema, type ListContactsQuery } from "./schemas";
import {
  createOrUpdateContact,
  deleteContact,
  getContact,
  optContact,
  updateContact,
} from "./service";

const KEY: Actor = { type: "api_key", id: "key_1", name: "Shopify" };

let db: DB;
beforeAll(async () => {
  db = await getDb();
});

const list = (workspaceId: string, query: Partial<ListContactsQuery> = {}) => listContacts(db, workspaceId, { limit: 50, ...query });

async function addMessage(workspaceId: string, campaignId: string, contactId: string, phone: string, status: MessageStatus, at: Date) {
  const [row] = await db
    .insert(messages)
    .values({ id: newId("msg"), workspaceId, campaignId, contactId, phoneNumber: phone, templateName: "t", templateLanguage: "en", renderedText: "Hi", status, createdAt: at })
    .returning();
  return row!;
}

describe("contacts service", () => {
  it("search matches the phone in any formatting or part of the name", async () => {
    const { workspaceId } = await createTestAccount();
    await createOrUpdateContact(db, workspaceId, { phone: "+14155552671", name: "Maria Silva" }, KEY);
    await createOrUpdateContact(db, workspaceId, { phone: "+447700900123", name: "John 100%" }, KEY);
    const phones = async (search: string) => (await list(workspaceId, { search })).data.map((c) => c.phone);
    expect(await phones("+1 (415) 555-2671")).toEqual(["+14155552671"]);
    expect(await phones("415.555")).toEqual(["+14155552671"]);
    expect(await phones("silva")).toEqual(["+14155552671"]);
    expect(await phones("MARIA S")).toEqual(["+14155552671"]);
    expect(await phones("100%")).toEqual(["+447700900123"]);
    expect(await phones("%")).toEqual(["+447700900123"]);
    expect(await phones("nobody")).toEqual([]);
    const other = await createTestAccount();
    expect((await list(other.workspaceId, { search: "4155552671" })).data).toEqual([]);
  });

  it("pages newest first without skipping or repeating rows that share a timestamp", async () => {
    const { workspaceId } = await createTestAccount();
    const same = new Date("2026-03-01T12:00:00.123Z");
    await db.insert(contacts).values(
      Array.from({ length: 7 }, (_, i) => ({ id: newId("ctc"), workspaceId, phoneNumber: `+1415555010${i}`, createdAt: i < 5 ? same : new Date(same.getTime() + i) })),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(workspaceId, { limit: 2, cursor });
      seen.push(...page.data.map((c) => c.phone));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen.slice(0, 2)).toEqual(["+14155550106", "+14155550105"]);
    await expect(list(workspaceId, { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("filters by list, segment and consent; rows carry their lists and last message status", async () => {
    const { workspaceId } = await createTestAccount();
    const a = (await createOrUpdateContact(db, workspaceId, { phone: "+14155550001", attributes: { city: "Lisbon" } }, KEY)).contact;
    const b = (await createOrUpdateContact(db, workspaceId, { phone: "+14155550002", attributes: { city: "Porto" }, optedOut: true }, KEY)).contact;
    const vip = await createList(db, workspaceId, { name: "VIP" });
    const alpha = await createList(db, workspaceId, { name: "Alpha" });
    await addListMembers(db, workspaceId, vip.id, { contactIds: [a.id, b.id] });
    await addListMembers(db, workspaceId, alpha.id, { contactIds: [a.id] });
    const campaign = await insertCampaignRow(workspaceId);
    await addMessage(workspaceId, campaign.id, a.id, a.phone, "failed", new Date("2026-01-01T00:00:00Z"));
    await addMessage(workspaceId, campaign.id, a.id, a.phone, "read", new Date("2026-01-02T00:00:00Z"));
    const segment = await createSegment(db, workspaceId, { name: "Lisbon", filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Lisbon" }] } });

    const byList = await list(workspaceId, { listId: vip.id });
    expect(byList.data.map((c) => c.phone)).toEqual(["+14155550002", "+14155550001"]);
    const first = byList.data[1]!;
    expect(first.lists).toEqual([
      { id: alpha.id, name: "Alpha" },
      { id: vip.id, name: "VIP" },
    ]);
    expect(first.lastMessageStatus).toBe("read");
    expect(byList.data[0]!.lastMessageStatus).toBeNull();
    expect((await list(workspaceId, { listId: alpha.id })).data.map((c) => c.id)).toEqual([a.id]);
    expect((await list(workspaceId, { segmentId: segment.id })).data.map((c) => c.id)).toEqual([a.id]);
    expect((await list(workspaceId, { optedOut: true })).data.map((c) => c.id)).toEqual([b.id]);
    expect((await list(workspaceId, { optedOut: false })).data.map((c) => c.id)).toEqual([a.id]);

    const stranger = await createTestAccount();
    await expect(list(stranger.workspaceId, { listId: vip.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(list(stranger.workspaceId, { segmentId: segment.id })).rejects.toMatchObject({ code: "not_found" });
  });

  it("gets by id or phone, with consent recorded by whoever acted", async () => {
    const account = await createTestAccount();
    const { workspaceId } = account;
    const user: Actor = { type: "user", id: account.id, email: "owner@example.test", name: "Owner" };
    const apiKey = await createApiKey(db, workspaceId, { userId: account.id, ip: null, userAgent: null }, { name: "Shopify" });
    const key: Actor = { type: "api_key", id: apiKey.id, name: "Shopify" };
    const { contact, created } = await createOrUpdateContact(db, workspaceId, { phone: "+14155552671", name: "Maria" }, key);
    expect(created).toBe(true);
    expect(contact.consent).toEqual({ status: "unknown", source: null, updatedAt: null, optedOut: false, optedOutAt: null, method: null, detail: null });
    expect(await getContact(db, workspaceId, "%2B14155552671")).toEqual(contact);
    expect(await getContact(db, workspaceId, contact.id)).toEqual(contact);
    await expect(getContact(db, workspaceId, "ctc_nope")).rejects.toMatchObject({ code: "not_found" });
    await expect(getContact(db, workspaceId, "4155552671")).rejects.toMatchObject({ code: "validation_failed" });

    const out = await optContact(db, workspaceId, contact.id, true, user);
    expect(out.consent).toMatchObject({ status: "unsubscribed", source: "manual", optedOut: true, method: "manual", detail: "owner@example.test" });
    expect(out.consent.optedOutAt).not.toBeNull();
    expect(out.consent.updatedAt).toBe(out.consent.optedOutAt);
    const again = await optContact(db, workspaceId, contact.phone, true, key);
    expect(again.consent).toEqual(out.consent);
    const back = await optContact(db, workspaceId, contact.phone, false, key);
    expect(back.consent).toMatchObject({ status: "subscribed", source: "api", optedOut: false, optedOutAt: null, method: null, detail: null });
    const viaUpsert = await createOrUpdateContact(db, workspaceId, { phone: "+14155552671", optedOut: true }, key);
    expect(viaUpsert).toMatchObject({ created: false, contact: { name: "Maria", consent: { status: "unsubscribed", source: "api", optedOut: true, method: "api", detail: "Shopify" } } });

    // Each change is audited once, with what it was before; a repeat changes nothing and writes nothing.
    const audits = await db
      .select({ action: auditEvents.action, metadata: auditEvents.metadata, userId: auditEvents.actorUserId, keyId: auditEvents.actorApiKeyId })
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.action, "contact.consent_changed")))
      .orderBy(auditEvents.createdAt);
    expect(audits).toEqual([
      { action: "contact.consent_changed", metadata: { from: "unknown", to: "unsubscribed", source: "manual", detail: "owner@example.test" }, userId: account.id, keyId: null },
      { action: "contact.consent_changed", metadata: { from: "unsubscribed", to: "subscribed", source: "api", detail: "Shopify" }, userId: null, keyId: apiKey.id },
      { action: "contact.consent_changed", metadata: { from: "subscribed", to: "unsubscribed", source: "api", detail: "Shopify" }, userId: null, keyId: apiKey.id },
    ]);

    const stranger = await createTestAccount();
    await expect(optContact(db, stranger.workspaceId, contact.id, false, user)).rejects.toMatchObject({ code: "not_found" });
    expect((await getContact(db, workspaceId, contact.id)).consent.optedOut).toBe(true);
  });

  it("consent by status: create, PATCH to any status (by hand), and the deprecated optedOut false only lifts an unsubscribe", async () => {
    const account = await createTestAccount();
    const { workspaceId } = account;
    const user: Actor = { type: "user", id: account.id, email: "owner@example.test", name: "Owner" };
    const { contact } = await createOrUpdateContact(db, workspaceId, { phone: "+14155550101", consent: "subscribed" }, user);
    expect(contact.consent).toMatchObject({ status: "subscribed", source: "manual", optedOut: false });
    expect(contact.consent.updatedAt).not.toBeNull();
    const unknown = await updateContact(db, workspaceId, contact.id, { consent: "unknown" }, user);
    expect(unknown.consent).toMatchObject({ status: "unknown", source: "manual" });
    const kept = await createOrUpdateContact(db, workspaceId, { phone: "+14155550101", optedOut: false }, user);
    expect(kept.contact.consent.status).toBe("unknown");
    const out = await updateContact(db, workspaceId, contact.id, { consent: "unsubscribed" }, user);
    expect(out.consent).toMatchObject({ status: "unsubscribed", optedOut: true, method: "manual" });
    const lifted = await createOrUpdateContact(db, workspaceId, { phone: "+14155550101", optedOut: false }, user);
    expect(lifted.contact.consent).toMatchObject({ status: "subscribed", optedOut: false, optedOutAt: null });
    expect(createContactSchema.safeParse({ phone: "+14155550101", consent: "subscribed", optedOut: false }).success).toBe(false);
    expect(createContactSchema.safeParse({ phone: "+14155550101", consent: "maybe" }).success).toBe(false);
  });

  it("the database refuses a consent status out of step with the opt-out record", async () => {
    const { workspaceId } = await createTestAccount();
    await expect(db.insert(contacts).values({ id: "ctc_bad1", workspaceId, phoneNumber: "+14155550102", consentStatus: "unsubscribed" })).rejects.toThrow();
    await expect(db.insert(contacts).values({ id: "ctc_bad2", workspaceId, phoneNumber: "+14155550103", optedOutAt: new Date(), consentStatus: "subscribed" })).rejects.toThrow();
  });

  it("PATCH merges attributes, null removes a key, typed attributes refuse other types and nothing is written", async () => {
    const { workspaceId } = await createTestAccount();
    await defineAttribute(db, workspaceId, { key: "points", type: "number" });
    await defineAttribute(db, workspaceId, { key: "birthday", type: "date" });
    const { contact } = await createOrUpdateContact(db, workspaceId, { phone: "+14155552671", name: "Maria", attributes: { points: 1, city: "Lisbon", tier: "gold" } }, KEY);

    const updated = await updateContact(db, workspaceId, contact.id, { attributes: { points: 2, city: null, birthday: "1990-05-01" } });
    expect(updated.attributes).toEqual({ points: 2, tier: "gold", birthday: "1990-05-01" });
    expect(updated.name).toBe("Maria");
    expect((await updateContact(db, workspaceId, contact.phone, { name: null })).name).toBeNull();

    const error = await updateContact(db, workspaceId, contact.id, { name: "Changed", attributes: { points: "3", birthday: "1990-02-30", tier: "silver" } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "validation_failed", status: 422 });
    expect((error as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["attributes.points", "attributes.birthday"]);
    expect(await getContact(db, workspaceId, contact.id)).toMatchObject({ name: null, attributes: { points: 2, tier: "gold" } });
    await expect(createOrUpdateContact(db, workspaceId, { phone: "+14155550000", attributes: { points: "many" } }, KEY)).rejects.toMatchObject({ code: "validation_failed" });
    expect((await list(workspaceId, {})).data).toHaveLength(1);
  });

  it("delete keeps the messages (unlinked) and the history lists messages across campaigns with their names", async () => {
    const { workspaceId } = await createTestAccount();
    const { contact } = await createOrUpdateContact(db, workspaceId, { phone: "+14155552671" }, KEY);
    const welcome = await insertCampaignRow(workspaceId, { name: "Welcome" });
    const orders = await insertCampaignRow(workspaceId, { name: "Orders" });
    const same = new Date("2026-02-01T00:00:00.000Z");
    const m1 = await addMessage(workspaceId, welcome.id, contact.id, contact.phone, "delivered", same);
    const m2 = await addMessage(workspaceId, orders.id, contact.id, contact.phone, "failed", same);
    const m3 = await addMessage(workspaceId, orders.id, contact.id, contact.phone, "sending", new Date("2026-02-02T00:00:00Z"));

    const first = await listContactMessages(db, workspaceId, contact.phone, { limit: 2 });
    expect(first.data[0]).toMatchObject({ id: m3.id, object: "message", status: "queued", campaignName: "Orders" });
    const second = await listContactMessages(db, workspaceId, contact.id, { limit: 2, cursor: first.nextCursor! });
    expect([...first.data, ...second.data].map((m) => m.id).sort()).toEqual([m1.id, m2.id, m3.id].sort());
    expect(second.nextCursor).toBeNull();
    const stranger = await createTestAccount();
    await expect(listContactMessages(db, stranger.workspaceId, contact.id, { limit: 10 })).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteContact(db, stranger.workspaceId, contact.id)).rejects.toMatchObject({ code: "not_found" });

    await deleteContact(db, workspaceId, contact.phone);
    await expect(getContact(db, workspaceId, contact.id)).rejects.toMatchObject({ code: "not_found" });
    const kept = await db.select().from(messages).where(eq(messages.workspaceId, workspaceId));
    expect(kept).toHaveLength(3);
    expect(kept.every((m) => m.contactId === null && m.phoneNumber === contact.phone)).toBe(true);
  });
});
