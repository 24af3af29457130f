import { describe, expect, it } from "vitest";
import { parseStrict } from "@/lib/http/request";
import { contactAttributeListSchema, contactAttributeSchema } from "@/lib/openapi/schemas";
import { callRoute, createApiAccount } from "@/lib/testing/api-factories";
import { DELETE, GET, POST } from "./route";

type Problem = { type?: string; errors?: { path: string; code: string }[] };

const define = (key: string, body: unknown) => callRoute<Problem>(POST, "POST", "/api/v1/contact-attributes", { key, body });

describe("/api/v1/contact-attributes", () => {
  it("defines (201), repeats (200), refuses another type (409) and bad keys (422); each workspace has its own", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    const created = await define(mine.key, { key: "points", type: "number" });
    expect(created.status).toBe(201);
    expect(parseStrict(contactAttributeSchema, created.body)).toMatchObject({ key: "points", type: "number" });
    expect((await define(mine.key, { key: "points", type: "number" })).status).toBe(200);
    const conflict = await define(mine.key, { key: "points", type: "date" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.type).toBe("/docs/api#error-attribute_type_conflict");
    const bad = await define(mine.key, { key: "first name", type: "text", extra: true });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(["extra", "key", "type"]);

    expect((await define(theirs.key, { key: "points", type: "string" })).status).toBe(201);
    const listed = await callRoute(GET, "GET", "/api/v1/contact-attributes", { key: mine.key });
    expect(parseStrict(contactAttributeListSchema, listed.body).data.map((a) => [a.key, a.type])).toEqual([["points", "number"]]);
    const empty = await createApiAccount();
    expect((await callRoute<{ data: unknown[] }>(GET, "GET", "/api/v1/contact-attributes", { key: empty.key })).body.data).toEqual([]);
  });

  it("405 with Allow for other methods, 401 without credentials", async () => {
    const { key } = await createApiAccount();
    const response = await callRoute(DELETE, "DELETE", "/api/v1/contact-attributes", { key });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
    expect((await callRoute(GET, "GET", "/api/v1/contact-attributes")).status).toBe(401);
  });
});
