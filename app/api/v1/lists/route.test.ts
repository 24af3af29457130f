import { describe, expect, it } from "vitest";
import { parseStrict } from "@/lib/http/request";
import { listPageSchema, listSchema, membershipResultSchema } from "@/lib/openapi/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import * as contactsRoute from "../contacts/route";
import * as members from "./[id]/contacts/route";
import * as one from "./[id]/route";
import * as collection from "./route";

type Problem = { type?: string; errors?: { path: string; code: string }[] };
type List = { id: string; name: string; contactCount: number } & Problem;

const createList = (key: string, name: unknown) => callRoute<List>(collection.POST, "POST", "/api/v1/lists", { key, body: { name } });
const createContact = async (key: string, phone: string) =>
  (await callRoute<{ id: string }>(contactsRoute.POST, "POST", "/api/v1/contacts", { key, body: { phone } })).body.id;

describe("/api/v1/lists", () => {
  it("create (201), get, rename, list, add and remove members, delete (204)", async () => {
    const { key } = await createApiAccount();
    const created = await createList(key, "VIP");
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/lists/${created.body.id}`);
    expect(parseStrict(listSchema, created.body)).toMatchObject({ name: "VIP", contactCount: 0 });
    const params = { id: created.body.id };
    const url = `/api/v1/lists/${created.body.id}`;

    const a = await createContact(key, "+14155550001");
    await createContact(key, "+14155550002");
    const added = await callRoute(members.POST, "POST", `${url}/contacts`, { key, params, body: { contactIds: [a, "ctc_unknown"], phones: ["+14155550002", "+14155550003"] } });
    expect(added.status).toBe(200);
    expect(parseStrict(membershipResultSchema, added.body)).toEqual({
      listId: created.body.id,
      changed: 2,
      unknownContactIds: ["ctc_unknown"],
      unknownPhones: ["+14155550003"],
      contactCount: 2,
    });
    const filtered = await callRoute<{ data: { id: string }[] }>(contactsRoute.GET, "GET", `/api/v1/contacts?listId=${created.body.id}`, { key });
    expect(filtered.body.data).toHaveLength(2);
    const removed = await callRoute<{ changed: number; contactCount: number }>(members.DELETE, "DELETE", `${url}/contacts`, { key, params, body: { phones: ["+14155550001"] } });
    expect(removed.body).toMatchObject({ changed: 1, contactCount: 1 });

    const renamed = await callRoute<List>(one.PATCH, "PATCH", url, { key, params, body: { name: "Gold" } });
    expect(renamed.body).toMatchObject({ name: "Gold", contactCount: 1 });
    expect((await callRoute<List>(one.GET, "GET", url, { key, params })).body).toMatchObject({ name: "Gold", contactCount: 1 });
    const page = await callRoute(collection.GET, "GET", "/api/v1/lists?limit=10", { key });
    expect(parseStrict(listPageSchema, page.body).data.map((l) => l.name)).toEqual(["Gold"]);
    expect((await callRoute(one.DELETE, "DELETE", url, { key, params })).status).toBe(204);
    expect((await callRoute(one.GET, "GET", url, { key, params })).status).toBe(404);
  });

  it("409 for a name in use, 422 for bad bodies (nothing changes)", async () => {
    const { key } = await createApiAccount();
    const first = await createList(key, "VIP");
    const taken = await createList(key, "VIP");
    expect(taken.status).toBe(409);
    expect(taken.body.type).toBe("/docs/api#error-list_name_taken");
    expect((await createList(key, "")).body.errors?.map((e) => e.path)).toEqual(["name"]);
    const params = { id: first.body.id };
    const url = `/api/v1/lists/${first.body.id}/contacts`;
    const empty = await callRoute<Problem>(members.POST, "POST", url, { key, params, body: {} });
    expect(empty.status).toBe(422);
    const tooMany = await callRoute<Problem>(members.POST, "POST", url, { key, params, body: { contactIds: Array.from({ length: 1001 }, (_, i) => `ctc_${i}`) } });
    expect(tooMany.status).toBe(422);
    const badPhone = await callRoute<Problem>(members.POST, "POST", url, { key, params, body: { phones: ["4155550001"], extra: 1 } });
    expect(badPhone.body.errors?.map((e) => e.path).sort()).toEqual(["extra", "phones[0]"]);
    expect((await callRoute<List>(one.GET, "GET", `/api/v1/lists/${first.body.id}`, { key, params })).body.contactCount).toBe(0);
  });

  it("another workspace's list is 404 on every route and method, and stays untouched", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    const list = await createList(theirs.key, "Theirs");
    const phone = "+14155550009";
    const contactId = await createContact(mine.key, phone);
    await createContact(theirs.key, phone);
    const params = { id: list.body.id };
    const url = `/api/v1/lists/${list.body.id}`;
    const responses = await Promise.all([
      callRoute(one.GET, "GET", url, { key: mine.key, params }),
      callRoute(one.PATCH, "PATCH", url, { key: mine.key, params, body: { name: "Mine" } }),
      callRoute(one.DELETE, "DELETE", url, { key: mine.key, params }),
      callRoute(members.POST, "POST", `${url}/contacts`, { key: mine.key, params, body: { contactIds: [contactId], phones: [phone] } }),
      callRoute(members.DELETE, "DELETE", `${url}/contacts`, { key: mine.key, params, body: { phones: [phone] } }),
      callRoute(contactsRoute.GET, "GET", `/api/v1/contacts?listId=${list.body.id}`, { key: mine.key }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain("Theirs");
    }
    expect((await callRoute<{ data: unknown[] }>(collection.GET, "GET", "/api/v1/lists", { key: mine.key })).body.data).toEqual([]);
    expect((await callRoute<List>(one.GET, "GET", url, { key: theirs.key, params })).body).toMatchObject({ name: "Theirs", contactCount: 0 });
  });

  it("405 with Allow for other methods", async () => {
    const { key } = await createApiAccount();
    const cases: [string, NextRouteHandler, string][] = [
      ["PUT", collection.PUT, "GET, POST"],
      ["POST", one.POST, "GET, PATCH, DELETE"],
      ["GET", members.GET, "POST, DELETE"],
    ];
    for (const [method, handler, allow] of cases) {
      const response = await callRoute(handler, method, "/api/v1/lists/x", { key, params: { id: "x" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
    }
  });
});
