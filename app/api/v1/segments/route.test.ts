import { describe, expect, it } from "vitest";
import { parseStrict } from "@/lib/http/request";
import { segmentCountSchema, segmentPageSchema, segmentSchema } from "@/lib/openapi/schemas";
import type { NextRouteHandler } from "@/lib/routing/route";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import * as contactsRoute from "../contacts/route";
import * as listsRoute from "../lists/route";
import * as countSaved from "./[id]/count/route";
import * as one from "./[id]/route";
import * as countFilter from "./count/route";
import * as collection from "./route";

type Problem = { type?: string; errors?: { path: string; code: string }[] };
type Segment = { id: string; name: string; contactCount: number } & Problem;

const LISBON = { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Lisbon" }] };

async function seed(key: string) {
  for (const [phone, city] of [
    ["+14155550001", "Lisbon"],
    ["+14155550002", "Lisbon"],
    ["+14155550003", "Porto"],
  ] as const) {
    await callRoute(contactsRoute.POST, "POST", "/api/v1/contacts", { key, body: { phone, attributes: { city } } });
  }
}

const create = (key: string, body: unknown) => callRoute<Segment>(collection.POST, "POST", "/api/v1/segments", { key, body });

describe("/api/v1/segments", () => {
  it("create (201) with its count, get, update, list, count saved and unsaved filters, filter contacts, delete (204)", async () => {
    const { key } = await createApiAccount();
    await seed(key);
    const created = await create(key, { name: "Lisbon", filter: LISBON });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/segments/${created.body.id}`);
    expect(parseStrict(segmentSchema, created.body)).toMatchObject({ name: "Lisbon", filter: LISBON, contactCount: 2 });
    const params = { id: created.body.id };
    const url = `/api/v1/segments/${created.body.id}`;

    const count = await callRoute(countSaved.GET, "GET", `${url}/count`, { key, params });
    expect(parseStrict(segmentCountSchema, count.body)).toEqual({ contactCount: 2 });
    const unsaved = await callRoute(countFilter.POST, "POST", "/api/v1/segments/count", {
      key,
      body: { filter: { match: "any", conditions: [...LISBON.conditions, { field: "attribute", key: "city", op: "contains", value: "port" }] } },
    });
    expect(unsaved.body).toEqual({ contactCount: 3 });
    const contacts = await callRoute<{ data: { phone: string }[] }>(contactsRoute.GET, "GET", `/api/v1/contacts?segmentId=${created.body.id}`, { key });
    expect(contacts.body.data.map((c) => c.phone).sort()).toEqual(["+14155550001", "+14155550002"]);

    const updated = await callRoute<Segment>(one.PATCH, "PATCH", url, { key, params, body: { name: "Porto", filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Porto" }] } } });
    expect(updated.body).toMatchObject({ name: "Porto", contactCount: 1 });
    expect((await callRoute<Segment>(one.GET, "GET", url, { key, params })).body).toMatchObject({ name: "Porto", contactCount: 1 });
    const page = await callRoute(collection.GET, "GET", "/api/v1/segments", { key });
    expect(parseStrict(segmentPageSchema, page.body).data.map((s) => s.name)).toEqual(["Porto"]);
    expect((await callRoute(one.DELETE, "DELETE", url, { key, params })).status).toBe(204);
    expect((await callRoute(countSaved.GET, "GET", `${url}/count`, { key, params })).status).toBe(404);
  });

  it("409 for a name in use; 422 with paths for bad filters, including another workspace's list", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    await create(mine.key, { name: "Lisbon", filter: LISBON });
    const taken = await create(mine.key, { name: "Lisbon", filter: LISBON });
    expect(taken.status).toBe(409);
    expect(taken.body.type).toBe("/docs/api#error-segment_name_taken");

    const bad = await create(mine.key, {
      name: "Bad",
      filter: { match: "some", conditions: [{ field: "attribute", key: "points", op: "gt", value: "ten" }, { field: "nope" }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(["filter.conditions[0].value", "filter.conditions[1].field", "filter.match"]);

    const foreignList = await callRoute<{ id: string }>(listsRoute.POST, "POST", "/api/v1/lists", { key: theirs.key, body: { name: "Theirs" } });
    const foreign = { match: "all", conditions: [{ field: "list", op: "in", listId: foreignList.body.id }] };
    const refused = await create(mine.key, { name: "Foreign", filter: foreign });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: "filter.conditions[0].listId", code: "unknown_list" })]);
    const count = await callRoute<Problem>(countFilter.POST, "POST", "/api/v1/segments/count", { key: mine.key, body: { filter: foreign } });
    expect(count.status).toBe(422);
    expect((await callRoute(countFilter.POST, "POST", "/api/v1/segments/count", { key: mine.key, body: { filter: LISBON, name: "x" } })).status).toBe(422);
    // Members of another kind of condition are unknown here, not silently dropped.
    const mixed = await callRoute<Problem>(countFilter.POST, "POST", "/api/v1/segments/count", {
      key: mine.key,
      body: { filter: { match: "all", conditions: [{ field: "opted_out", value: true, op: "equals" }] } },
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors).toEqual([expect.objectContaining({ path: "filter.conditions[0].op", code: "unrecognized_key" })]);
  });

  it("another workspace's segment is 404 on every route and method, and stays untouched", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    await seed(theirs.key);
    const segment = await create(theirs.key, { name: "Theirs", filter: LISBON });
    const params = { id: segment.body.id };
    const url = `/api/v1/segments/${segment.body.id}`;
    const responses = await Promise.all([
      callRoute(one.GET, "GET", url, { key: mine.key, params }),
      callRoute(one.PATCH, "PATCH", url, { key: mine.key, params, body: { name: "Mine" } }),
      callRoute(one.DELETE, "DELETE", url, { key: mine.key, params }),
      callRoute(countSaved.GET, "GET", `${url}/count`, { key: mine.key, params }),
      callRoute(contactsRoute.GET, "GET", `/api/v1/contacts?segmentId=${segment.body.id}`, { key: mine.key }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain("Theirs");
    }
    expect((await callRoute<{ data: unknown[] }>(collection.GET, "GET", "/api/v1/segments", { key: mine.key })).body.data).toEqual([]);
    expect((await callRoute(countFilter.POST, "POST", "/api/v1/segments/count", { key: mine.key, body: { filter: LISBON } })).body).toEqual({ contactCount: 0 });
    expect((await callRoute<Segment>(one.GET, "GET", url, { key: theirs.key, params })).body).toMatchObject({ name: "Theirs", contactCount: 2 });
  });

  it("405 with Allow for other methods", async () => {
    const { key } = await createApiAccount();
    const cases: [string, NextRouteHandler, string][] = [
      ["DELETE", collection.DELETE, "GET, POST"],
      ["PUT", one.PUT, "GET, PATCH, DELETE"],
      ["POST", countSaved.POST, "GET"],
      ["GET", countFilter.GET, "POST"],
    ];
    for (const [method, handler, allow] of cases) {
      const response = await callRoute(handler, method, "/api/v1/segments/x", { key, params: { id: "x" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
    }
  });
});
