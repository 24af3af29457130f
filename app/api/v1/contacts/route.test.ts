import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { and, eq } from "drizzle-orm";
import { auditEvents, messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { parseStrict } from "@/lib/http/request";
import { contactMessagePageSchema, contactPageSchema, contactSchema } from "@/lib/openapi/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, createApiAccount, SAME_ORIGIN, sessionCookie } from "@/lib/testing/api-factories";
import { insertCampaignRow } from "@/lib/testing/logs-factories";
import * as one from "./[idOrPhone]/route";
import * as history from "./[idOrPhone]/messages/route";
import * as optIn from "./[idOrPhone]/opt-in/route";
import * as optOut from "./[idOrPhone]/opt-out/route";
import * as bulkRoute from "./bulk/route";
import * as collection from "./route";

type Problem = { status: number; code?: string; errors?: { path: string; code: string }[] };
type Contact = { id: string; phone: string; name: string | null; attributes: Record<string, unknown>; consent: { status: string; source: string | null; optedOut: boolean; method: string | null; detail: string | null } };

const PHONE = "+14155552671";

const create = (key: string, body: unknown) => callRoute<Contact & Problem>(collection.POST, "POST", "/api/v1/contacts", { key, body });
const at = (idOrPhone: string) => `/api/v1/contacts/${encodeURIComponent(idOrPhone)}`;

describe("/api/v1/contacts", () => {
  it("POST creates (201, Location by id), then updates (200); optedOut records the key; GET lists and searches", async () => {
    const account = await createApiAccount();
    const created = await create(account.key, { phone: PHONE, name: "Maria", attributes: { city: "Lisbon" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/contacts/${created.body.id}`);
    expect(parseStrict(contactSchema, created.body)).toMatchObject({ phone: PHONE, name: "Maria", consent: { optedOut: false } });
    const updated = await create(account.key, { phone: PHONE, attributes: { tier: "gold" }, optedOut: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: "Maria", attributes: { city: "Lisbon", tier: "gold" }, consent: { optedOut: true, method: "api", detail: "Test integration" } });
    expect((await create(account.key, { phone: "+442071838750", name: "John" })).status).toBe(201);

    const page = await callRoute<{ data: Contact[]; nextCursor: string | null }>(collection.GET, "GET", "/api/v1/contacts?search=%2B1%20(415)%20555-2671", { key: account.key });
    expect(page.status).toBe(200);
    expect(parseStrict(contactPageSchema, page.body).data.map((c) => c.phone)).toEqual([PHONE]);
    const optedIn = await callRoute<{ data: Contact[] }>(collection.GET, "GET", "/api/v1/contacts?optedOut=false&limit=10", { key: account.key });
    expect(optedIn.body.data.map((c) => c.phone)).toEqual(["+442071838750"]);
    const paged = await callRoute<{ data: Contact[]; nextCursor: string }>(collection.GET, "GET", "/api/v1/contacts?limit=1", { key: account.key });
    const next = await callRoute<{ data: Contact[]; nextCursor: string | null }>(collection.GET, "GET", `/api/v1/contacts?limit=1&cursor=${paged.body.nextCursor}`, { key: account.key });
    expect([...paged.body.data, ...next.body.data].map((c) => c.phone)).toEqual(["+442071838750", PHONE]);
    expect(next.body.nextCursor).toBeNull();
  });

  it("the web app's session can call it too", async () => {
    const account = await createApiAccount();
    const cookie = await sessionCookie(account);
    const created = await callRoute<Contact>(collection.POST, "POST", "/api/v1/contacts", { cookie, headers: SAME_ORIGIN, body: { phone: PHONE } });
    expect(created.status).toBe(201);
    const out = await callRoute<Contact>(optOut.POST, "POST", `${at(PHONE)}/opt-out`, { cookie, headers: SAME_ORIGIN, params: { idOrPhone: PHONE } });
    expect(out.body.consent).toMatchObject({ optedOut: true, method: "manual", detail: "user@example.test" });
  });

  it("422 with per-field errors for bad bodies and queries; nothing stored", async () => {
    const account = await createApiAccount();
    const bad = await create(account.key, { phone: "4155552671", nickname: "x", optedOut: "yes" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(["nickname", "optedOut", "phone"]);
    const query = await callRoute<Problem>(collection.GET, "GET", "/api/v1/contacts?limit=0&optedOut=maybe&cursor=zzz", { key: account.key });
    expect(query.status).toBe(422);
    expect(query.body.errors?.map((e) => e.path).sort()).toEqual(["limit", "optedOut"]);
    const unstorable = await callRoute<Problem>(collection.GET, "GET", "/api/v1/contacts?search=a%00b", { key: account.key });
    expect(unstorable.body.errors?.map((e) => e.path)).toEqual(["search"]);
    const cursor = await callRoute<Problem>(collection.GET, "GET", "/api/v1/contacts?cursor=zzz", { key: account.key });
    expect(cursor.body.errors).toEqual([expect.objectContaining({ path: "cursor", code: "invalid_cursor" })]);
    expect((await callRoute<{ data: unknown[] }>(collection.GET, "GET", "/api/v1/contacts", { key: account.key })).body.data).toEqual([]);
  });

  it("PATCH merges typed attributes, refuses a wrong type with 422, DELETE answers 204 and keeps the messages", async () => {
    const account = await createApiAccount();
    const { body: contact } = await create(account.key, { phone: PHONE, attributes: { city: "Lisbon", points: 1 } });
    const { defineAttribute } = await import("@/lib/contacts/attributes");
    await defineAttribute(await getDb(), account.workspaceId, { key: "points", type: "number" });
    const patch = (body: unknown) => callRoute<Contact & Problem>(one.PATCH, "PATCH", at(contact.id), { key: account.key, params: { idOrPhone: contact.id }, body });
    const ok = await patch({ name: "Maria", attributes: { city: null, points: 5 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: "Maria", attributes: { points: 5 } });
    const wrong = await patch({ attributes: { points: "five" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ path: "attributes.points", code: "invalid_type" })]);

    const campaign = await insertCampaignRow(account.workspaceId, { name: "Welcome" });
    const db = await getDb();
    await db.insert(messages).values({ id: newId("msg"), workspaceId: account.workspaceId, campaignId: campaign.id, contactId: contact.id, phoneNumber: PHONE, templateName: "t", templateLanguage: "en", renderedText: "Hi", status: "delivered" });
    const listed = await callRoute(history.GET, "GET", `${at(PHONE)}/messages`, { key: account.key, params: { idOrPhone: PHONE } });
    expect(listed.status).toBe(200);
    expect(parseStrict(contactMessagePageSchema, listed.body).data).toEqual([expect.objectContaining({ campaignName: "Welcome", status: "delivered" })]);

    const removed = await callRoute(one.DELETE, "DELETE", at(PHONE), { key: account.key, params: { idOrPhone: PHONE } });
    expect(removed.status).toBe(204);
    expect((await callRoute(one.GET, "GET", at(contact.id), { key: account.key, params: { idOrPhone: contact.id } })).status).toBe(404);
    expect(await db.select().from(messages)).toEqual(expect.arrayContaining([expect.objectContaining({ campaignId: campaign.id, contactId: null, phoneNumber: PHONE })]));
  });

  it("another workspace's contact is 404 on every route and method, by id and by phone, and stays untouched", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    const { body: contact } = await create(theirs.key, { phone: PHONE, name: "Theirs" });
    for (const idOrPhone of [contact.id, PHONE]) {
      const params = { idOrPhone };
      const calls = [
        callRoute<Problem>(one.GET, "GET", at(idOrPhone), { key: mine.key, params }),
        callRoute<Problem>(one.PATCH, "PATCH", at(idOrPhone), { key: mine.key, params, body: { name: "Mine" } }),
        callRoute<Problem>(one.DELETE, "DELETE", at(idOrPhone), { key: mine.key, params }),
        callRoute<Problem>(optOut.POST, "POST", `${at(idOrPhone)}/opt-out`, { key: mine.key, params }),
        callRoute<Problem>(optIn.POST, "POST", `${at(idOrPhone)}/opt-in`, { key: mine.key, params }),
        callRoute<Problem>(history.GET, "GET", `${at(idOrPhone)}/messages`, { key: mine.key, params }),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status, idOrPhone).toBe(404);
        expect(JSON.stringify(response.body)).not.toContain("Theirs");
      }
    }
    expect((await callRoute<{ data: unknown[] }>(collection.GET, "GET", "/api/v1/contacts", { key: mine.key })).body.data).toEqual([]);
    const still = await callRoute<Contact>(one.GET, "GET", at(contact.id), { key: theirs.key, params: { idOrPhone: contact.id } });
    expect(still.body).toMatchObject({ name: "Theirs", consent: { optedOut: false } });
  });

  it("consent: POST and PATCH set the status (source api, audited), 422 for an unknown status or both fields; POST /contacts/bulk too", async () => {
    const account = await createApiAccount();
    const created = await create(account.key, { phone: "+14155550301", consent: "subscribed" });
    expect(created.status).toBe(201);
    expect(parseStrict(contactSchema, created.body).consent).toMatchObject({ status: "subscribed", source: "api", optedOut: false });
    const id = created.body.id;
    const patched = await callRoute<Contact>(one.PATCH, "PATCH", at(id), { key: account.key, params: { idOrPhone: id }, body: { consent: "unsubscribed" } });
    expect(patched.status).toBe(200);
    expect(patched.body.consent).toMatchObject({ status: "unsubscribed", source: "api", optedOut: true, method: "api", detail: "Test integration" });
    const bad = await callRoute<Problem>(one.PATCH, "PATCH", at(id), { key: account.key, params: { idOrPhone: id }, body: { consent: "maybe" } });
    expect(bad.status).toBe(422);
    const both = await create(account.key, { phone: "+14155550301", consent: "subscribed", optedOut: false });
    expect(both.status).toBe(422);
    expect((await callRoute<Contact>(one.GET, "GET", at(id), { key: account.key, params: { idOrPhone: id } })).body.consent).toMatchObject({ status: "unsubscribed" });

    const bulk = await callRoute<{ data: { id: string }[] }>(bulkRoute.POST, "POST", "/api/v1/contacts/bulk", {
      key: account.key,
      body: [
        { phone: "+14155550302", consent: "subscribed" },
        { phone: "+14155550301", consent: "unknown" },
      ],
    });
    expect(bulk.status).toBe(200);
    const [subscribed, unknown] = await Promise.all(
      bulk.body.data.map((item) => callRoute<Contact>(one.GET, "GET", at(item.id), { key: account.key, params: { idOrPhone: item.id } })),
    );
    expect(subscribed!.body.consent).toMatchObject({ status: "subscribed", source: "api" });
    expect(unknown!.body.consent).toMatchObject({ status: "unknown", source: "api", optedOut: false, optedOutAt: null });

    const audit = await (await getDb())
      .select({ metadata: auditEvents.metadata, keyId: auditEvents.actorApiKeyId })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, "contact.consent_changed")))
      .orderBy(auditEvents.createdAt);
    expect(audit.map((row) => [row.metadata.from, row.metadata.to])).toEqual([
      ["unknown", "subscribed"],
      ["subscribed", "unsubscribed"],
    ]);
    expect(audit.every((row) => row.keyId !== null)).toBe(true);
  });

  it("opt-out and opt-in by phone; 405 with Allow for other methods; 401 without credentials", async () => {
    const account = await createApiAccount();
    await create(account.key, { phone: PHONE });
    const params = { idOrPhone: PHONE };
    const out = await callRoute<Contact>(optOut.POST, "POST", `${at(PHONE)}/opt-out`, { key: account.key, params });
    expect(out.body.consent).toMatchObject({ optedOut: true, method: "api", detail: "Test integration" });
    const back = await callRoute<Contact>(optIn.POST, "POST", `${at(PHONE)}/opt-in`, { key: account.key, params });
    expect(back.body.consent).toMatchObject({ status: "subscribed", source: "api", optedOut: false, optedOutAt: null, method: null, detail: null });

    const notAllowed: [string, NextRouteHandler, string][] = [
      ["DELETE", collection.DELETE, "GET, POST"],
      ["POST", one.POST, "GET, PUT, PATCH, DELETE"],
      ["GET", optOut.GET, "POST"],
      ["PUT", optIn.PUT, "POST"],
      ["POST", history.POST, "GET"],
    ];
    for (const [method, handler, allow] of notAllowed) {
      const response = await callRoute(handler, method, "/api/v1/contacts/x", { key: account.key, params });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
    }
    expect((await callRoute(collection.GET, "GET", "/api/v1/contacts")).status).toBe(401);
    expect((await callRoute(optOut.POST, "POST", `${at(PHONE)}/opt-out`, { params })).status).toBe(401);
  });
});
