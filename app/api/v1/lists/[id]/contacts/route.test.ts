import { describe, expect, it } from "vitest";
import { parseStrict } from "@/lib/http/request";
import { membershipResultSchema, segmentCountSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import * as contactsRoute from "../../../contacts/route";
import * as countRoute from "../../../contacts/count/route";
import * as segmentsRoute from "../../../segments/route";
import * as listsRoute from "../../route";
import * as members from "./route";

type Problem = { status?: number; type?: string; errors?: { path: string }[] };

const createContact = async (key: string, body: Record<string, unknown>) => callRoute<{ id: string } & Problem>(contactsRoute.POST, "POST", "/api/v1/contacts", { key, body });
const createList = async (key: string, name: string) => (await callRoute<{ id: string }>(listsRoute.POST, "POST", "/api/v1/lists", { key, body: { name } })).body.id;
const createSegment = async (key: string, city: string) =>
  (
    await callRoute<{ id: string }>(segmentsRoute.POST, "POST", "/api/v1/segments", {
      key,
      body: { name: `In ${city}`, filter: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: city }] } },
    })
  ).body.id;
const count = async (key: string, query = "") =>
  parseStrict(segmentCountSchema, (await callRoute(countRoute.GET, "GET", `/api/v1/contacts/count${query}`, { key })).body).contactCount;

describe("POST /api/v1/lists/{id}/contacts with a segment", () => {
  it("adds every contact the segment selects now, once; again changes nothing", async () => {
    const { key } = await createApiAccount();
    for (const [phone, city] of [["+14155550001", "Lisbon"], ["+14155550002", "Lisbon"], ["+14155550003", "Porto"]]) {
      await createContact(key, { phone, attributes: { city } });
    }
    const listId = await createList(key, "Lisbon folk");
    const segmentId = await createSegment(key, "Lisbon");
    const add = () => callRoute(members.POST, "POST", `/api/v1/lists/${listId}/contacts`, { key, params: { id: listId }, body: { segmentId } });
    const first = await add();
    expect(first.status).toBe(200);
    expect(parseStrict(membershipResultSchema, first.body)).toEqual({ listId, changed: 2, unknownContactIds: [], unknownPhones: [], contactCount: 2 });
    expect((await add()).body).toMatchObject({ changed: 0, contactCount: 2 });
    expect(await count(key, `?listId=${listId}`)).toBe(2);
  });

  it("another workspace's list or segment is a 404; segmentId with ids is a 422", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    const myList = await createList(mine.key, "Mine");
    const mySegment = await createSegment(mine.key, "Lisbon");
    const theirList = await createList(theirs.key, "Theirs");
    const theirSegment = await createSegment(theirs.key, "Lisbon");
    await createContact(theirs.key, { phone: "+14155550009", attributes: { city: "Lisbon" } });

    const bySegment = (listId: string, segmentId: string) =>
      callRoute<Problem>(members.POST, "POST", `/api/v1/lists/${listId}/contacts`, { key: mine.key, params: { id: listId }, body: { segmentId } });
    expect((await bySegment(theirList, mySegment)).status).toBe(404);
    const foreignSegment = await bySegment(myList, theirSegment);
    expect(foreignSegment.status).toBe(404);
    expect(foreignSegment.body.type).toBe("/docs/api#error-not_found");
    expect(await count(theirs.key, `?listId=${theirList}`)).toBe(0);
    expect(await count(mine.key, `?listId=${myList}`)).toBe(0);

    const mixed = await callRoute<Problem>(members.POST, "POST", `/api/v1/lists/${myList}/contacts`, {
      key: mine.key,
      params: { id: myList },
      body: { segmentId: mySegment, contactIds: ["ctc_x"] },
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors?.map((e) => e.path)).toEqual(["segmentId"]);
  });
});

describe("GET /api/v1/contacts/count", () => {
  it("counts the workspace's contacts, with the list's filters", async () => {
    const { key } = await createApiAccount();
    const other = await createApiAccount();
    await createContact(other.key, { phone: "+14155550100" });
    expect(await count(key)).toBe(0);
    await createContact(key, { phone: "+14155550101", name: "Maria" });
    await createContact(key, { phone: "+14155550102", name: "João", consent: "unsubscribed" });
    expect(await count(key)).toBe(2);
    expect(await count(key, "?search=maria")).toBe(1);
    expect(await count(key, "?optedOut=true")).toBe(1);
    expect((await callRoute(countRoute.GET, "GET", "/api/v1/contacts/count?listId=lst_nope", { key })).status).toBe(404);
  });
});

describe("POST /api/v1/contacts with ifExists: error", () => {
  it("creates a new contact; a phone already there is a 409 contact_exists and changes nothing", async () => {
    const { key } = await createApiAccount();
    const created = await createContact(key, { phone: "+14155550201", name: "Ana", ifExists: "error", consent: "subscribed" });
    expect(created.status).toBe(201);
    const again = await createContact(key, { phone: "+14155550201", name: "Someone else", ifExists: "error" });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe("/docs/api#error-contact_exists");
    const stored = await callRoute<{ data: { name: string; consent: { status: string } }[] }>(contactsRoute.GET, "GET", "/api/v1/contacts", { key });
    expect(stored.body.data).toMatchObject([{ name: "Ana", consent: { status: "subscribed" } }]);
    expect((await createContact(key, { phone: "+14155550201", name: "Updated" })).status).toBe(200);
  });
});
